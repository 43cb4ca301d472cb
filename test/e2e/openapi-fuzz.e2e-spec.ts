// Slow by design: FUZZ_RUNS hostile requests to every operation of both documents (1 MB strings, 100,000 items), each answer checked.
import fc from 'fast-check';
import { currentAcademicCycle } from '@app/trainees/decider';
import { RunningApi } from '../support/api-harness';
import { hostileJsonLabel, hostileJsonText, hostileQuery, internalMessagesIn } from '../support/hostile-input';
import { checkAgainstServedDocument } from '../support/served-document';
import { uniqueTrainee, type Version } from '../support/trainee-input';

/**
 * Bad input never yields a 5xx (docs/DESIGN.md property 7): every operation of the OpenAPI
 * document each served version serves gets fast-check–generated requests, with the token of a
 * provider that owns real trainees, so ids in paths hit real records, another provider's record, or
 * nothing: bodies built from the operation's request example and schema, then mutated (wrong types,
 * nesting 10,000 deep, arrays of 100,000, strings of 1 MB, prototype keys, unicode, numbers past
 * 64 bits), and hostile query strings. No answer may be a 5xx, quote an internal message, or differ
 * from what the served document describes (so every 4xx has a contract error shape), and another
 * provider's record is never answered with a 2xx, nor a text of 10,000 characters in a field of the
 * schema with one (every text field has a length or a format, docs/operations.md "Limits").
 * test/e2e/bad-input.e2e-spec.ts sends random JSON to the trainee writes; this covers every
 * operation with hostile sizes and shapes.
 *
 * Bounded: FUZZ_RUNS requests per operation and version (default 30; four times as many with query
 * parameters), seeded FUZZ_SEED (default 5) plus the operation's index. A failure names fast-check's
 * seed and path and the command that replays that operation alone (FUZZ_ONLY='<version> <METHOD> <template>').
 */
const VERSIONS: readonly Version[] = ['v2025.0', 'v2026.1'];
const SEED = Number(process.env.FUZZ_SEED ?? 5);
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
const ONLY = process.env.FUZZ_ONLY ?? null;

type Json = Record<string, any>;

/** One documented operation, with what the generator needs of it. */
interface Operation {
  version: Version;
  method: string;
  template: string;
  queryKeys: string[];
  hasEnhancedErrors: boolean;
  /** The request example and the keys its schema names (top level of `data`, and of items of its arrays). */
  body: { example: Json; dataKeys: string[]; itemKeys: Record<string, string[]> } | null;
}

/** A trainee of the fuzzing provider, with its placement and degree ids. */
interface Fixture {
  traineeId: string;
  placementIds: string[];
  degreeIds: string[];
}

/** Where a hostile value goes: the whole body, `data`, a key of `data`, a key of an array item, or a deletion. */
type Mutation =
  | { at: 'root' | 'data'; label: string }
  | { at: 'key'; key: string; label: string }
  | { at: 'item'; key: string; sub: string; label: string }
  | { at: 'delete'; key: string };

/** What one generated request is made of (labels, so a counterexample prints short). */
interface Recipe {
  fixture: number;
  trainee: string;
  subId: string;
  query: string;
  mutations: Mutation[];
  raw: string | null;
  enhanced: string | null;
}

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'];
const RAW_BODIES = ['', '{', '{"data":', 'nul', '{"data":{}}x', '{"data":{},"data":[]}', '\u0000', '\ufeff{"data":{}}'];
// Not `..` or `%2e%2e`: the client resolves them before sending (WHATWG URL), so they reach another route.
const HOSTILE_IDS = [
  '...',
  '%2F',
  '%5C',
  '%00',
  '__proto__',
  'constructor',
  'x'.repeat(2_000),
  '9223372036854775808',
  '%F0%9F%91%A9',
  '%ZZ',
  '-0',
];

/** Resolves a local `$ref` of the document. */
function deref(doc: Json, node: Json | undefined): Json | undefined {
  let value = node;
  while (value && typeof value.$ref === 'string') {
    value = (value.$ref as string)
      .slice(2)
      .split('/')
      .reduce<Json | undefined>((parent, segment) => parent?.[segment], doc);
  }
  return value;
}

/** The operations of a served document, with their query parameters, headers and request bodies. */
function operationsOf(doc: Json, version: Version): Operation[] {
  const operations: Operation[] = [];
  for (const [template, pathItem] of Object.entries(doc.paths as Json)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = (pathItem as Json)[method] as Json | undefined;
      if (!op) continue;
      const parameters = ((op.parameters ?? []) as Json[]).map((p) => deref(doc, p)!);
      const media = deref(doc, op.requestBody)?.content?.['application/json'] as Json | undefined;
      let body: Operation['body'] = null;
      if (media) {
        const data = deref(doc, deref(doc, media.schema)?.properties?.data);
        const itemKeys: Record<string, string[]> = {};
        for (const [key, prop] of Object.entries((data?.properties ?? {}) as Json)) {
          const items = deref(doc, (prop as Json).items);
          if (items?.properties) itemKeys[key] = Object.keys(items.properties);
        }
        body = { example: (media.example ?? { data: {} }) as Json, dataKeys: Object.keys(data?.properties ?? {}), itemKeys };
      }
      operations.push({
        version,
        method: method.toUpperCase(),
        template,
        queryKeys: parameters.filter((p) => p.in === 'query').map((p) => p.name as string),
        hasEnhancedErrors: parameters.some((p) => p.in === 'header' && p.name === 'Enhanced-Errors'),
        body,
      });
    }
  }
  return operations;
}

/** The recipes of requests to one operation. */
function recipeOf(op: Operation, fixtures: number): fc.Arbitrary<Recipe> {
  const keys = op.body ? [...op.body.dataKeys, ...PROTOTYPE_KEYS, 'unknown_key'] : ['x'];
  const arrayKeys = op.body && Object.keys(op.body.itemKeys).length > 0 ? Object.keys(op.body.itemKeys) : null;
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    { arbitrary: fc.record({ at: fc.constantFrom('root' as const, 'data' as const), label: hostileJsonLabel }), weight: 1 },
    { arbitrary: fc.record({ at: fc.constant('key' as const), key: fc.constantFrom(...keys), label: hostileJsonLabel }), weight: 6 },
    { arbitrary: fc.record({ at: fc.constant('delete' as const), key: fc.constantFrom(...keys) }), weight: 1 },
    ...(arrayKeys
      ? [
          {
            arbitrary: fc.constantFrom(...arrayKeys).chain((key) =>
              fc.record({
                at: fc.constant('item' as const),
                key: fc.constant(key),
                sub: fc.constantFrom(...op.body!.itemKeys[key], ...PROTOTYPE_KEYS),
                label: hostileJsonLabel,
              }),
            ),
            weight: 3,
          },
        ]
      : []),
  );
  return fc.record({
    fixture: fc.nat({ max: fixtures - 1 }),
    trainee: fc.oneof(
      { arbitrary: fc.constant('real'), weight: 6 },
      { arbitrary: fc.constant('foreign'), weight: 1 },
      { arbitrary: fc.uuid(), weight: 1 },
      { arbitrary: fc.constantFrom(...HOSTILE_IDS), weight: 1 },
    ),
    subId: fc.oneof({ arbitrary: fc.constant('real'), weight: 4 }, fc.uuid(), fc.constantFrom(...HOSTILE_IDS)),
    query: hostileQuery(op.queryKeys),
    mutations: fc.array(mutation, { minLength: 1, maxLength: 3 }),
    raw: fc.oneof({ arbitrary: fc.constant(null), weight: 12 }, fc.constantFrom(...RAW_BODIES)),
    enhanced: op.hasEnhancedErrors ? fc.constantFrom(null, 'true', 'false', '', '__proto__', 'x'.repeat(300)) : fc.constant(null),
  });
}

/** Sets an own enumerable property (`__proto__` included) so JSON.stringify writes it. */
function put(target: unknown, key: string, value: unknown): void {
  if (typeof target !== 'object' || target === null) return;
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The body text of a recipe: the example with each mutation's marker replaced by its hostile JSON text. */
function bodyText(op: Operation, recipe: Recipe): string | undefined {
  if (!op.body) return undefined;
  if (recipe.raw !== null) return recipe.raw;
  let body: Json = structuredClone(op.body.example);
  const replacements: [string, string][] = [];
  recipe.mutations.forEach((m, i) => {
    if (m.at === 'delete') {
      if (typeof body.data === 'object' && body.data !== null) delete body.data[m.key];
      return;
    }
    const marker = `@@hostile${i}@@`;
    replacements.push([JSON.stringify(marker), hostileJsonText(m.label)]);
    if (m.at === 'root') body = marker as unknown as Json;
    else if (m.at === 'data') put(body, 'data', marker);
    else if (m.at === 'key') put(body.data, m.key, marker);
    else if (m.at === 'item') {
      const list = body.data?.[m.key];
      if (Array.isArray(list) && typeof list[0] === 'object' && list[0] !== null) put(list[0], m.sub, marker);
      else put(body.data, m.key, [{ [m.sub]: marker }]);
    }
  });
  let text = JSON.stringify(body);
  for (const [marker, hostile] of replacements) text = text.split(marker).join(hostile);
  return text;
}

/** Whether `later`, applied after `earlier`, replaces or removes what `earlier` put in the body. */
function replaces(later: Mutation, earlier: Mutation): boolean {
  if (!('key' in later)) return true; // the whole body or its `data` replaced
  if (!('key' in earlier) || later.key !== earlier.key) return false;
  return later.at !== 'item' || (earlier.at === 'item' && later.sub === earlier.sub);
}

/**
 * The first field of the schema a recipe filled with a text of 10,000 characters or more (and no
 * later mutation replaced or removed), or null.
 */
function unboundedText(op: Operation, recipe: Recipe): string | null {
  if (!op.body || recipe.raw !== null) return null;
  for (const [i, m] of recipe.mutations.entries()) {
    const length = m.at !== 'delete' && m.label.startsWith('longString:') ? Number(m.label.slice('longString:'.length)) : 0;
    if (length < 10_000 || recipe.mutations.slice(i + 1).some((later) => replaces(later, m))) continue;
    if (m.at === 'key' && op.body.dataKeys.includes(m.key)) return `${length} characters in ${m.key}`;
    if (m.at === 'item' && op.body.itemKeys[m.key]?.includes(m.sub)) return `${length} characters in ${m.key}[].${m.sub}`;
  }
  return null;
}

describe('every served operation under hostile requests (property test, docs/DESIGN.md property 7)', () => {
  let api: RunningApi;
  let token: string;
  let foreignId: string;
  const fixtures: Fixture[] = [];
  const operations: Operation[] = [];

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken('10000041');
    const otherToken = await api.providerToken('10000042');
    foreignId = (await api.request('POST', '/api/v2026.1/trainees', otherToken, uniqueTrainee('v2026.1'))).body.data.trainee_id;
    // Half of them in the current cycle, which a list without `academic_cycle` shows; half in the example's.
    const cycle = currentAcademicCycle(new Date().toISOString().slice(0, 10));
    const thisCycle = { itt_start_date: `${cycle}-08-01`, trainee_start_date: `${cycle}-08-01`, itt_end_date: `${cycle + 2}-07-31` };
    for (const [version, dates] of VERSIONS.flatMap((v) => [[v, thisCycle] as const, [v, {}] as const])) {
      const created = await api.request('POST', `/api/${version}/trainees`, token, uniqueTrainee(version, dates));
      expect(created.status).toBe(201);
      const id = created.body.data.trainee_id as string;
      const ids = async (sub: string, key: string): Promise<string[]> =>
        ((await api.request('GET', `/api/${version}/trainees/${id}/${sub}`, token)).body.data as Json[]).map((x) => x[key] as string);
      fixtures.push({ traineeId: id, placementIds: await ids('placements', 'placement_id'), degreeIds: await ids('degrees', 'degree_id') });
    }
    for (const version of VERSIONS) {
      const doc = (await (await fetch(`${api.baseUrl}/api/${version}/openapi.json`)).json()) as Json;
      operations.push(...operationsOf(doc, version));
    }
  });
  afterAll(() => api.close());

  /** The path and query of a recipe's request to `op`. */
  function urlOf(op: Operation, recipe: Recipe): string {
    const fixture = fixtures[recipe.fixture];
    const trainee = recipe.trainee === 'real' ? fixture.traineeId : recipe.trainee === 'foreign' ? foreignId : recipe.trainee;
    const subIds = op.template.includes('{placement_id}') ? fixture.placementIds : fixture.degreeIds;
    const subId = recipe.subId === 'real' ? (subIds[0] ?? 'none') : recipe.subId;
    const path = op.template
      .replace('{api_version}', op.version)
      .replace('{trainee_id}', trainee)
      .replace(/\{(placement|degree)_id\}/, subId);
    return recipe.query ? `${path}?${recipe.query}` : path;
  }

  /** Sends one request and throws when its answer breaks a rule of this test. */
  async function sendAndCheck(op: Operation, recipe: Recipe): Promise<void> {
    const url = urlOf(op, recipe);
    const body = bodyText(op, recipe);
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (recipe.enhanced !== null) headers['enhanced-errors'] = recipe.enhanced;
    const res = await fetch(`${api.baseUrl}${url}`, { method: op.method, headers, body });
    const text = await res.text();
    const where = `${op.method} ${url.slice(0, 200)} with a body of ${body?.length ?? 0} characters answered ${res.status}`;
    if (res.status >= 500) throw new Error(`${where}: ${text.slice(0, 500)}`);
    const leaks = internalMessagesIn(text, url + (body ?? ''));
    if (leaks.length > 0) throw new Error(`${where}, quoting internal messages (${leaks.join(', ')}): ${text.slice(0, 500)}`);
    if (recipe.trainee === 'foreign' && op.template.includes('{trainee_id}') && res.status < 300)
      throw new Error(`${where}: another provider's trainee`);
    const unbounded = res.status < 300 ? unboundedText(op, recipe) : null;
    if (unbounded)
      throw new Error(`${where}: it took ${unbounded} (every text field must have a length or a format: docs/DESIGN.md ruling 14)`);
    await checkAgainstServedDocument(api.baseUrl, op.method, url, { status: res.status, headers: res.headers, text });
  }

  it('answers every operation of both served documents with no 5xx, no internal message and a documented answer', async () => {
    const name = (op: Operation): string => `${op.version} ${op.method} ${op.template}`;
    expect(operations.length).toBeGreaterThanOrEqual(40);
    const failures: string[] = [];
    for (const [index, op] of operations.entries()) {
      if (ONLY !== null && name(op) !== ONLY) continue;
      const seed = SEED + index;
      const details = await fc.check(
        fc.asyncProperty(recipeOf(op, fixtures.length), (recipe) => sendAndCheck(op, recipe)),
        { seed, numRuns: op.queryKeys.length > 0 ? RUNS * 4 : RUNS, endOnFailure: true },
      );
      if (details.failed) {
        const message = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.error);
        failures.push(
          `${name(op)} (fast-check seed ${seed}, path "${details.counterexamplePath}"; replay: FUZZ_SEED=${SEED} ` +
            `FUZZ_ONLY='${name(op)}'):\n    ${message.slice(0, 900)}\n    ${JSON.stringify(details.counterexample).slice(0, 400)}`,
        );
      }
    }
    expect(failures).toEqual([]);
  }, 240_000);
});
