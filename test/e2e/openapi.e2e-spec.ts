import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { RunningApi } from '../support/api-harness';
import { validateOpenApiDocument } from '../support/openapi-validator';
import { checkAgainstServedDocument, checkRequestAgainstServedDocument } from '../support/served-document';
import { uniqueTrainee } from '../support/trainee-input';

type Document = {
  openapi: string;
  info: { version: string };
  paths: Record<
    string,
    Record<
      string,
      { responses: Record<string, unknown>; security?: unknown[]; requestBody?: { content: Record<string, { example?: unknown }> } }
    >
  >;
  components: { schemas: Record<string, unknown> };
};

const VERSIONS = ['v2025.0', 'v2026.1'] as const;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** The reference implementation's own OpenAPI description of `version` (docs/reference/openapi). */
function referenceDocument(version: string): Document {
  return load(readFileSync(join(__dirname, '..', '..', 'docs', 'reference', 'openapi', `${version}.yaml`), 'utf8')) as Document;
}

describe('the OpenAPI documents, served without a token', () => {
  let api: RunningApi;
  const documents: Partial<Record<string, Document>> = {};

  beforeAll(async () => {
    api = await RunningApi.start();
    for (const version of VERSIONS) {
      const res = await fetch(`${api.baseUrl}/api/${version}/openapi.json`);
      documents[version] = (await res.json()) as Document;
    }
  });
  afterAll(() => api.close());

  describe.each(VERSIONS)('%s', (version) => {
    const doc = (): Document => documents[version]!;

    it('answers the JSON document at openapi.json and the same as YAML at openapi.yaml', async () => {
      const json = await fetch(`${api.baseUrl}/api/${version}/openapi.json`);
      expect(json.status).toBe(200);
      expect(json.headers.get('content-type')).toMatch(/^application\/json/);
      expect(doc()).toMatchObject({ openapi: '3.1.0', info: { version } });
      const yaml = await fetch(`${api.baseUrl}/api/${version}/openapi.yaml`);
      expect(yaml.status).toBe(200);
      expect(yaml.headers.get('content-type')).toMatch(/^application\/yaml/);
      expect(load(await yaml.text())).toEqual(doc());
    });

    it('passes an OpenAPI schema validator with no error', () => {
      expect(validateOpenApiDocument(doc() as unknown as Record<string, unknown>)).toEqual({ valid: true, errors: [] });
    });

    it('has every path and method of the reference implementation’s own document', () => {
      const reference = referenceDocument(version);
      const missing: string[] = [];
      for (const [path, item] of Object.entries(reference.paths)) {
        for (const method of METHODS) {
          if (item[method] && !doc().paths[path]?.[method]) missing.push(`${method.toUpperCase()} ${path}`);
        }
      }
      expect(missing).toEqual([]);
      expect(Object.keys(doc().paths).length).toBeGreaterThanOrEqual(Object.keys(reference.paths).length);
    });

    it('describes 401 for every operation that needs a token, and none for those that do not', () => {
      for (const [path, item] of Object.entries(doc().paths)) {
        for (const method of METHODS) {
          const op = item[method];
          if (!op) continue;
          const isPublic = Array.isArray(op.security) && op.security.length === 0;
          expect([`${method} ${path}`, '401' in op.responses]).toEqual([`${method} ${path}`, !isPublic]);
          expect([`${method} ${path}`, '429' in op.responses]).toEqual([`${method} ${path}`, true]);
        }
      }
    });

    it('declares on every operation what the exception filter and the body parser can answer, and the headers each answer may carry', () => {
      const missing: string[] = [];
      for (const [path, item] of Object.entries(doc().paths)) {
        for (const method of METHODS) {
          const op = item[method] as (typeof item)[string] & { parameters?: { name: string; in: string }[] };
          if (!op) continue;
          const at = `${method.toUpperCase()} ${path}`;
          const answers = op.responses as Record<string, { headers?: Record<string, unknown> }>;
          const expectStatus = (status: string, header?: string) => {
            if (!answers[status]) missing.push(`${at} ${status}`);
            else if (header && !answers[status].headers?.[header]) missing.push(`${at} ${status} ${header}`);
          };
          expectStatus('500');
          if (!(Array.isArray(op.security) && op.security.length === 0)) expectStatus('503', 'Retry-After');
          if (['post', 'put', 'patch', 'delete'].includes(method)) for (const status of ['400', '413', '415']) expectStatus(status);
          if (op.parameters?.some((p) => p.in === 'header' && p.name === 'Idempotency-Key')) {
            for (const status of ['400', '409', '422']) expectStatus(status, 'Idempotent-Replayed');
            for (const status of Object.keys(answers).filter((s) => s.startsWith('2'))) expectStatus(status, 'Idempotent-Replayed');
          }
          for (const [status, answer] of Object.entries(answers)) {
            for (const header of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) {
              if (!answer.headers?.[header]) missing.push(`${at} ${status} ${header}`);
            }
          }
        }
      }
      expect(missing).toEqual([]);
    });

    it('declares a token sent with Bearer or bare, either taken by every operation that needs one (docs/DESIGN.md ruling 20)', () => {
      const schemes = (doc() as unknown as { components: { securitySchemes: Record<string, Record<string, string>> } }).components
        .securitySchemes;
      expect(schemes.token).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(schemes.token.bearerFormat).not.toBe('JWT');
      expect(schemes.bareToken).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
      for (const [path, item] of Object.entries(doc().paths)) {
        for (const method of METHODS) {
          const op = item[method];
          if (!op || (Array.isArray(op.security) && op.security.length === 0)) continue;
          expect([`${method} ${path}`, op.security]).toEqual([`${method} ${path}`, [{ token: [] }, { bareToken: [] }]]);
        }
      }
    });

    it('carries the reference’s request examples on the writes', () => {
      const post = doc().paths['/api/{api_version}/trainees'].post;
      expect(post.requestBody?.content['application/json'].example).toMatchObject({ data: { first_names: 'John', last_name: 'Doe' } });
      expect(post.requestBody?.content['application/json'].example).not.toHaveProperty('data.iqts_country');
    });
  });

  it('describes the endpoints a version has: reference data and update-qts-or-eyts-status in v2026.1 only', () => {
    expect(documents['v2026.1']!.paths['/api/{api_version}/reference-data']).toBeDefined();
    expect(documents['v2025.0']!.paths['/api/{api_version}/reference-data']).toBeUndefined();
    expect(documents['v2026.1']!.paths['/api/{api_version}/trainees/{trainee_id}/update-qts-or-eyts-status']).toBeDefined();
    expect(documents['v2025.0']!.paths['/api/{api_version}/trainees/{trainee_id}/update-qts-or-eyts-status']).toBeUndefined();
  });

  it('describes the change feed and the webhook payload in every version (docs/change-feed.md)', () => {
    for (const v of ['v2025.0', 'v2026.1']) {
      const d = documents[v]! as (typeof documents)[string] & { webhooks?: Record<string, { post: Record<string, unknown> }> };
      const feed = d.paths['/api/{api_version}/changes'].get as { parameters?: { name: string }[]; responses: Record<string, unknown> };
      expect(feed?.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['after', 'limit']));
      expect(feed?.responses['200']).toMatchObject({
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ChangesPage' } } },
      });
      const delivery = d.webhooks?.change.post as { requestBody: unknown; parameters: { name: string }[] };
      expect(delivery.requestBody).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/Change' } } } });
      expect(delivery.parameters.map((p) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
      expect(d.components.schemas.Change).toMatchObject({
        required: expect.arrayContaining(['cursor', 'trainee_id', 'type', 'changed_fields']),
      });
    }
  });

  it('describes the pages of a trainee history: after, limit and their bounds, the page and both 422 shapes', () => {
    for (const v of ['v2025.0', 'v2026.1']) {
      const d = documents[v]!;
      const history = d.paths['/api/{api_version}/trainees/{trainee_id}/history'].get as {
        parameters: { name: string; schema: Record<string, unknown> }[];
        responses: Record<string, unknown>;
      };
      const param = (name: string) => history.parameters.find((p) => p.name === name)?.schema;
      expect(param('as_of')).toMatchObject({ type: 'string' });
      expect(param('after')).toEqual({ type: 'string', minLength: 23, maxLength: 23, pattern: '^[A-Za-z0-9_-]+$' });
      expect(param('limit')).toEqual({ type: 'integer', minimum: 1, maximum: 1000, default: 100 });
      expect(history.responses['422']).toMatchObject({
        content: {
          'application/json': {
            schema: { oneOf: [{ $ref: '#/components/schemas/UnprocessableEntity' }, { $ref: '#/components/schemas/ListQueryErrors' }] },
          },
        },
      });
      expect(d.components.schemas.TraineeHistoryResponse).toMatchObject({ oneOf: [{ $ref: '#/components/schemas/TimelinePage' }, {}] });
      expect(d.components.schemas.TimelinePage).toMatchObject({
        required: ['data', 'next_cursor', 'has_more'],
        properties: { data: { maxItems: 1000, items: { $ref: '#/components/schemas/TimelineEntry' } } },
      });
      expect(d.components.schemas.TimelineEntry).toMatchObject({ required: expect.arrayContaining(['hash', 'previous_hash']) });
    }
  });

  it('names each version’s fields in its own trainee schema', () => {
    const fieldsOf = (v: string) => Object.keys((documents[v]!.components.schemas.Trainee as { properties: object }).properties);
    expect(fieldsOf('v2025.0')).toEqual(expect.arrayContaining(['course_subject_one', 'lead_partner_urn', 'withdraw_date']));
    expect(fieldsOf('v2025.0')).not.toContain('course_subject_1');
    expect(fieldsOf('v2026.1')).toEqual(
      expect.arrayContaining(['course_subject_1', 'training_partner_urn', 'withdrawal_date', 'withdrawal_safeguarding_concern_reasons']),
    );
    expect(fieldsOf('v2026.1')).not.toContain('course_subject_one');
  });

  it('fails a test whose response the document does not describe', async () => {
    const headers = new Headers({ 'content-type': 'application/json' });
    await expect(
      checkAgainstServedDocument(api.baseUrl, 'GET', '/api/v2026.1/info', { status: 200, headers, text: '{"status":"ok"}' }),
    ).rejects.toThrow(/must have required property 'version'/);
    await expect(
      checkAgainstServedDocument(api.baseUrl, 'GET', '/api/v2026.1/trainees/abc', { status: 418, headers, text: '{}' }),
    ).rejects.toThrow(/418 is not documented/);
    await expect(
      checkAgainstServedDocument(api.baseUrl, 'GET', '/api/v2026.1/info', {
        status: 200,
        headers,
        text: '{"status":"ok","version":{"requested":"v2026.1","latest":"v2026.1"}}',
      }),
    ).resolves.toBeUndefined();
  });

  it('fails a test whose request the service accepted but the document refuses', async () => {
    await expect(
      checkRequestAgainstServedDocument(api.baseUrl, 'POST', '/api/v2026.1/trainees', '{"data":{"itt_start_date":12}}', 201),
    ).rejects.toThrow(/\/data\/itt_start_date must be string/);
    // Refused by the service: not the document's to accept.
    await expect(
      checkRequestAgainstServedDocument(api.baseUrl, 'POST', '/api/v2026.1/trainees', '{"data":{"itt_start_date":12}}', 422),
    ).resolves.toBeUndefined();
  });

  // A validating client sends what the document allows: the document must allow what the service accepts.
  it.each(VERSIONS)('accepts in %s a create whose trainee_start_date is empty, which the contract reads as no value', async (version) => {
    const token = await api.providerToken('10000150');
    const res = await api.request('POST', `/api/${version}/trainees`, token, uniqueTrainee(version, { trainee_start_date: '' }));
    expect(res.status).toBe(201);
  });

  it('accepts a v2026.1 assessment-only create without study_mode, the document stating the rule by route', async () => {
    const token = await api.providerToken('10000151');
    const body = uniqueTrainee('v2026.1', { training_route: '16' });
    delete body.data.study_mode;
    const res = await api.request('POST', '/api/v2026.1/trainees', token, body);
    expect(res.status).toBe(201);
    const input = documents['v2026.1']!.components.schemas.TraineeInput as {
      required: string[];
      properties: Record<string, { description: string }>;
    };
    expect(input.required).not.toContain('study_mode');
    expect(input.properties.study_mode.description).toMatch(/Required except on the training routes 16, 17/);
    const v2025 = documents['v2025.0']!.components.schemas.TraineeInput as { required: string[] };
    expect(v2025.required).toContain('study_mode');
  });

  it('treats a version that is not served as an unknown route', async () => {
    expect((await api.request('GET', '/api/v0.1/openapi.json', null)).status).toBe(401);
  });
});

describe('the docs page at /api-docs', () => {
  let api: RunningApi;

  beforeAll(async () => {
    api = await RunningApi.start();
  });
  afterAll(() => api.close());

  it('is Swagger UI whose every asset the service serves itself (no CDN), listing each served version’s document', async () => {
    const page = await fetch(`${api.baseUrl}/api-docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)=["']([^"']+)["']/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      expect(asset).not.toMatch(/^(https?:)?\/\//);
      const res = await fetch(new URL(asset, page.url));
      const body = await res.arrayBuffer();
      expect([asset, res.status, body.byteLength > 0]).toEqual([asset, 200, true]);
    }
    const init = await (await fetch(`${api.baseUrl}/api-docs/swagger-ui-init.js`)).text();
    for (const version of VERSIONS) expect(init).toContain(`/api/${version}/openapi.json`);
  });
});

describe('the OpenAPI documents state the limits the process runs with (docs/operations.md "Limits")', () => {
  let api: RunningApi;
  afterAll(() => api?.close());

  it('repeats the configured rate limits, the body and list bounds, idempotency and token expiry', async () => {
    api = await RunningApi.start({
      rateLimitIpPerMinute: 7,
      rateLimitTokenPerMinute: 0,
      uploadQuotas: { pendingMax: 3, dailyBytes: 5_000_000 },
    });
    const res = await fetch(`${api.baseUrl}/api/v2026.1/openapi.json`);
    const description = ((await res.json()) as { info: { description: string } }).info.description;
    expect(description).toContain('## Limits');
    expect(description).toMatch(/per client IP\s+7 requests per fixed 60-second window, per token off/);
    expect(description).toMatch(/`per_page` at most 500/);
    expect(description).toMatch(/trainee history's `limit` at most\s+1000/);
    expect(description).toMatch(/nested at most 16 levels, at most 1000 items/);
    expect(description).toContain('Idempotency-Key');
    expect(description).toMatch(/expired token answers 401/);
    expect(description).toMatch(/at most 1 MB \(413\), 1,000 trainee rows\s+and 2,000 rows after the header in all/);
    expect(description).toMatch(/at most 3 files waiting for their check and uploads at most\s+5,000,000 bytes of files in a UTC day/);
  });
});
