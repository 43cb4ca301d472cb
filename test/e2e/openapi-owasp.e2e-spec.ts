/**
 * Spectral's OWASP ruleset (the OWASP API Security Top 10 as lint rules) over each served OpenAPI
 * document, built in process as the service serves it: no request-side input without a bound
 * (`string-limit`, `integer-limit`, `array-limit` on a parameter, a request body or a schema a
 * request reaches) and every 2xx and 4xx answer declaring the rate limit's headers (`rate-limit`).
 * Nothing is fetched: the ruleset is a package, the document has only local references.
 */
import { Document, Spectral, type ISpectralDiagnostic } from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import owasp from '@stoplight/spectral-owasp-ruleset';
import { RunningApi } from '../support/api-harness';

const VERSIONS = ['v2025.0', 'v2026.1'] as const;
const BOUND_RULES = ['owasp:api4:2023-string-limit', 'owasp:api4:2023-integer-limit', 'owasp:api4:2023-array-limit'];
const RATE_LIMIT_RULE = 'owasp:api4:2023-rate-limit';

/**
 * The OWASP ruleset with only the rules these tests read turned on (Spectral's "extends … off",
 * then each rule by name): the others' findings are never looked at, and running them is most of
 * the time a run takes.
 */
function rulesRead(): Spectral {
  const spectral = new Spectral();
  spectral.setRuleset({
    extends: [[owasp, 'off']],
    rules: Object.fromEntries([...BOUND_RULES, RATE_LIMIT_RULE].map((rule) => [rule, true])),
  });
  return spectral;
}

type Json = Record<string, unknown>;

/** The names of the `#/components/schemas/…` that `node` refers to, at any depth. */
function schemaRefs(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const item of node) schemaRefs(item, into);
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) into.add(value.split('/').pop()!);
      else schemaRefs(value, into);
    }
  }
  return into;
}

/** The component schemas a request reaches: those its parameters and bodies refer to, and theirs in turn. */
function requestSchemas(document: Json): Set<string> {
  const names = new Set<string>();
  for (const item of Object.values(document.paths as Record<string, Json>)) {
    schemaRefs(item.parameters, names);
    for (const operation of Object.values(item) as Json[]) {
      schemaRefs(operation?.parameters, names);
      schemaRefs(operation?.requestBody, names);
    }
  }
  const schemas = (document.components as { schemas: Json }).schemas;
  for (let before = -1; before !== names.size;) {
    before = names.size;
    for (const name of [...names]) schemaRefs(schemas[name], names);
  }
  return names;
}

/** A finding about what a request sends: under an operation's parameters or body, or in a schema a request reaches. */
function onRequestSide(finding: ISpectralDiagnostic, reached: Set<string>): boolean {
  const [root, , third, fourth] = finding.path.map(String);
  if (root === 'paths') return third === 'parameters' || fourth === 'parameters' || fourth === 'requestBody';
  return root === 'components' && third !== undefined && reached.has(third);
}

const where = (finding: ISpectralDiagnostic): string => `${finding.code} ${finding.path.join('.')}`;

describe("the served OpenAPI documents under Spectral's OWASP ruleset", () => {
  let api: RunningApi;
  const findings = new Map<string, { document: Json; results: ISpectralDiagnostic[] }>();

  beforeAll(async () => {
    api = await RunningApi.start();
    for (const version of VERSIONS) {
      const res = await fetch(`${api.baseUrl}/api/${version}/openapi.json`);
      const text = await res.text();
      const spectral = rulesRead();
      findings.set(version, {
        document: JSON.parse(text) as Json,
        results: await spectral.run(new Document(text, Json, `${version}.json`)),
      });
    }
  }, 120_000);
  afterAll(() => api.close());

  it.each(VERSIONS)('%s: every string, integer and array a request sends has its bound', (version) => {
    const { document, results } = findings.get(version)!;
    const reached = requestSchemas(document);
    expect(reached.size).toBeGreaterThan(5);
    const unbounded = results.filter((r) => BOUND_RULES.includes(String(r.code)) && onRequestSide(r, reached)).map(where);
    expect(unbounded).toEqual([]);
  });

  it.each(VERSIONS)('%s: every 2xx and 4xx answer declares the rate limit headers it may carry', (version) => {
    const { results } = findings.get(version)!;
    expect(results.filter((r) => r.code === RATE_LIMIT_RULE).map(where)).toEqual([]);
  });

  it('runs the rules it is read for: an unbounded query parameter and an answer without the headers are found', async () => {
    const spectral = rulesRead();
    const document = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/x': {
          get: {
            parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }],
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    };
    const codes = (await spectral.run(new Document(JSON.stringify(document), Json, 'x.json'))).map((r) => r.code);
    expect(codes).toEqual(expect.arrayContaining(['owasp:api4:2023-string-limit', RATE_LIMIT_RULE]));
  });
});
