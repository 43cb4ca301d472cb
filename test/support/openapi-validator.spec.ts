/**
 * The response validator (openapi-validator.ts) over small hand-written OpenAPI 3.1 documents,
 * one per API version, shaped like the service's: `/api/{api_version}/...` with the version as an
 * enum path parameter.
 */
import Ajv2020 from 'ajv/dist/2020';
import { type ObservedResponse, OpenApiResponseValidator, validateOpenApiDocument } from './openapi-validator';

const TRAINEE_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** A trainee as the document's Trainee schema allows it. */
const trainee = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  trainee_id: TRAINEE_ID,
  trn: '1234567',
  first_names: 'Ada',
  middle_names: 'Augusta',
  date_of_birth: '1990-12-10',
  email: 'ada@example.org',
  disabilities: { disability1: 'blind', disability2: 'deaf' },
  ...overrides,
});

function documentFor(version: string): Record<string, unknown> {
  const json = (schema: unknown): Record<string, unknown> => ({ 'application/json': { schema } });
  return {
    openapi: '3.1.0',
    info: { title: 'Trainee records', version },
    paths: {
      '/api/{api_version}/trainees': {
        parameters: [{ $ref: '#/components/parameters/ApiVersion' }],
        get: {
          responses: {
            '200': { $ref: '#/components/responses/TraineeList' },
            '429': {
              description: 'Too many requests',
              headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
              content: { 'text/plain': { schema: { type: 'string', pattern: '^Slow down' } } },
            },
            '4XX': { $ref: '#/components/responses/Problem' },
          },
        },
        post: {
          responses: {
            '201': { description: 'Created', content: json({ $ref: '#/components/schemas/Trainee' }) },
            default: { $ref: '#/components/responses/Problem' },
          },
        },
      },
      '/api/{api_version}/trainees/{trainee_id}': {
        parameters: [
          { $ref: '#/components/parameters/ApiVersion' },
          { name: 'trainee_id', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z0-9-]+$' } },
        ],
        get: {
          responses: {
            '200': { description: 'A trainee', content: json({ $ref: '#/components/schemas/Trainee' }) },
            '404': { $ref: '#/components/responses/NotFound' },
          },
        },
        delete: {
          // Operation-level parameter overriding the path item's: only numeric ids can be deleted.
          parameters: [{ name: 'trainee_id', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } }],
          responses: { '204': { description: 'Deleted' } },
        },
      },
      // Declared before the more specific template on purpose: declaration order must not decide.
      '/api/{api_version}/trainees/{trainee_id}/{section}': {
        parameters: [{ $ref: '#/components/parameters/ApiVersion' }],
        get: {
          responses: {
            '200': {
              description: 'Any section',
              content: json({ type: 'object', required: ['section'], properties: { section: { type: 'string' } } }),
            },
          },
        },
      },
      '/api/{api_version}/trainees/{trainee_id}/degrees': {
        parameters: [{ $ref: '#/components/parameters/ApiVersion' }],
        get: {
          responses: {
            '200': {
              description: 'Degrees',
              content: json({ type: 'object', required: ['degrees'], properties: { degrees: { type: 'array' } } }),
            },
          },
        },
      },
      '/api/{api_version}/exports/{name}': {
        parameters: [{ $ref: '#/components/parameters/ApiVersion' }],
        get: {
          responses: {
            '200': {
              description: 'Any representation',
              content: { 'application/json': { schema: { type: 'object' } }, '*/*': {} },
            },
          },
        },
      },
      '/api/{api_version}/openapi.json': {
        parameters: [{ $ref: '#/components/parameters/ApiVersion' }],
        get: { responses: { '200': { description: 'This document', content: json({ type: 'object', required: ['openapi'] }) } } },
      },
    },
    components: {
      parameters: {
        ApiVersion: { name: 'api_version', in: 'path', required: true, schema: { type: 'string', enum: [version] } },
      },
      headers: {
        RetryAfter: { $ref: '#/components/headers/RetryAfterSeconds' },
        RetryAfterSeconds: { required: true, schema: { type: 'integer', minimum: 1 } },
      },
      responses: {
        TraineeList: {
          description: 'A page of trainees',
          content: json({ $ref: '#/components/schemas/TraineeList' }),
        },
        NotFound: { $ref: '#/components/responses/Problem' },
        Problem: {
          description: 'A problem',
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
        },
      },
      schemas: {
        TraineeList: {
          type: 'object',
          required: ['data'],
          additionalProperties: false,
          properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Trainee' } } },
        },
        Trainee: {
          type: 'object',
          required: ['trainee_id', 'trn', 'first_names'],
          additionalProperties: false,
          example: { trainee_id: TRAINEE_ID },
          externalDocs: { url: 'https://example.org/trainees' },
          xml: { name: 'trainee' },
          'x-internal': false,
          properties: {
            trainee_id: { type: 'string', format: 'uuid' },
            trn: { type: ['string', 'null'], pattern: '^[0-9]{7}$' },
            first_names: { type: 'string', examples: ['Ada'] },
            // `nullable` is not an OpenAPI 3.1 keyword: null must still be rejected here.
            middle_names: { type: 'string', nullable: true },
            date_of_birth: { type: 'string', format: 'date' },
            email: { type: 'string', format: 'email' },
            disabilities: { $ref: '#/components/schemas/Disabilities' },
          },
        },
        Disabilities: {
          type: 'object',
          additionalProperties: false,
          patternProperties: { '^disability\\d+$': { type: 'string' } },
        },
        Problem: {
          type: 'object',
          required: ['title', 'status'],
          discriminator: { propertyName: 'type' },
          properties: { title: { type: 'string' }, status: { type: 'integer' }, type: { type: 'string', format: 'uri' } },
        },
      },
    },
  };
}

const V2026 = '/api/v2026.1';
const validator = new OpenApiResponseValidator(documentFor('v2026.1'));

const jsonResponse = (method: string, url: string, status: number, body: unknown): ObservedResponse => ({
  method,
  url,
  status,
  contentType: 'application/json; charset=utf-8',
  text: JSON.stringify(body),
});

describe('OpenApiResponseValidator', () => {
  describe('conforming responses', () => {
    it('accepts a list that follows nested $refs, with the operation it matched', () => {
      const result = validator.check(jsonResponse('GET', `${V2026}/trainees?page=2`, 200, { data: [trainee(), trainee({ trn: null })] }));
      expect(result).toEqual({ operation: 'GET /api/{api_version}/trainees', problems: [] });
    });

    it('accepts problem+json through a 4XX range key and a chained response $ref', () => {
      const problem = { title: 'Not found', status: 404, type: 'https://example.org/problems/not-found' };
      const listProblem = validator.check({
        ...jsonResponse('get', `${V2026}/trainees`, 409, problem),
        contentType: 'application/problem+json',
      });
      expect(listProblem).toEqual({ operation: 'GET /api/{api_version}/trainees', problems: [] });
      const notFound = validator.check({
        ...jsonResponse('GET', `${V2026}/trainees/abc`, 404, problem),
        contentType: 'application/problem+json',
      });
      expect(notFound).toEqual({ operation: 'GET /api/{api_version}/trainees/{trainee_id}', problems: [] });
    });

    it("uses 'default' for a status without its own entry", () => {
      const result = validator.check({
        ...jsonResponse('POST', `${V2026}/trainees`, 500, { title: 'Boom', status: 500 }),
        contentType: 'application/problem+json',
      });
      expect(result.problems).toEqual([]);
      const wrong = validator.check({
        ...jsonResponse('POST', `${V2026}/trainees`, 500, { title: 'Boom' }),
        contentType: 'application/problem+json',
      });
      expect(wrong.problems).toEqual(["POST /api/{api_version}/trainees 500: (root) must have required property 'status'"]);
    });

    it('accepts an empty 204', () => {
      const result = validator.check({ method: 'DELETE', url: `${V2026}/trainees/42`, status: 204, contentType: null, text: '' });
      expect(result).toEqual({ operation: 'DELETE /api/{api_version}/trainees/{trainee_id}', problems: [] });
    });

    it('checks a text/plain body against its string schema', () => {
      const ok = validator.check({
        method: 'GET',
        url: `${V2026}/trainees`,
        status: 429,
        contentType: 'text/plain',
        text: 'Slow down, please',
      });
      expect(ok.problems).toEqual([]);
      const wrong = validator.check({ method: 'GET', url: `${V2026}/trainees`, status: 429, contentType: 'text/plain', text: 'Go away' });
      expect(wrong.problems).toEqual(['GET /api/{api_version}/trainees 429: (root) must match pattern "^Slow down"']);
    });
  });

  describe('schema violations', () => {
    it('reports a wrong type with its instance path', () => {
      const result = validator.check(jsonResponse('GET', `${V2026}/trainees`, 200, { data: [trainee({ trn: 1234567 })] }));
      expect(result.problems).toEqual(['GET /api/{api_version}/trainees 200: /data/0/trn must be string,null']);
    });

    it('reports every error, not only the first', () => {
      const result = validator.check(
        jsonResponse('GET', `${V2026}/trainees`, 200, { data: [trainee({ trn: '12', first_names: 7 }), trainee({ trainee_id: 'nope' })] }),
      );
      expect(result.problems).toEqual([
        'GET /api/{api_version}/trainees 200: /data/0/trn must match pattern "^[0-9]{7}$"',
        'GET /api/{api_version}/trainees 200: /data/0/first_names must be string',
        'GET /api/{api_version}/trainees 200: /data/1/trainee_id must match format "uuid"',
      ]);
    });

    it('rejects a property the schema does not describe (additionalProperties: false)', () => {
      const result = validator.check(jsonResponse('GET', `${V2026}/trainees/abc`, 200, trainee({ nickname: 'A' })));
      expect(result.problems).toEqual([
        "GET /api/{api_version}/trainees/{trainee_id} 200: (root) must NOT have additional properties: 'nickname'",
      ]);
    });

    it('admits only keys matching patternProperties, with their schema', () => {
      const ok = validator.check(jsonResponse('GET', `${V2026}/trainees/abc`, 200, trainee({ disabilities: { disability12: 'other' } })));
      expect(ok.problems).toEqual([]);
      const result = validator.check(
        jsonResponse('GET', `${V2026}/trainees/abc`, 200, trainee({ disabilities: { disability1: 3, disabilityX: 'x' } })),
      );
      expect(result.problems).toEqual([
        "GET /api/{api_version}/trainees/{trainee_id} 200: /disabilities must NOT have additional properties: 'disabilityX'",
        'GET /api/{api_version}/trainees/{trainee_id} 200: /disabilities/disability1 must be string',
      ]);
    });

    it('does not treat nullable: true as allowing null (not a keyword in 3.1)', () => {
      const result = validator.check(jsonResponse('GET', `${V2026}/trainees/abc`, 200, trainee({ middle_names: null })));
      expect(result.problems).toEqual(['GET /api/{api_version}/trainees/{trainee_id} 200: /middle_names must be string']);
    });

    it('keeps a property that happens to be named nullable while ignoring the keyword', () => {
      const document = {
        openapi: '3.1.0',
        info: { title: 't', version: '1' },
        paths: {
          '/flags': {
            get: {
              responses: {
                '200': {
                  description: 'Flags',
                  content: {
                    'application/json': {
                      schema: {
                        type: 'object',
                        required: ['nullable'],
                        properties: { nullable: { type: 'boolean', nullable: true } },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      };
      const flags = new OpenApiResponseValidator(document);
      expect(flags.check(jsonResponse('GET', '/flags', 200, { nullable: true })).problems).toEqual([]);
      expect(flags.check(jsonResponse('GET', '/flags', 200, { nullable: null })).problems).toEqual([
        'GET /flags 200: /nullable must be boolean',
      ]);
      expect(flags.check(jsonResponse('GET', '/flags', 200, {})).problems).toEqual([
        "GET /flags 200: (root) must have required property 'nullable'",
      ]);
    });

    it('checks the formats date and email', () => {
      const result = validator.check(
        jsonResponse('GET', `${V2026}/trainees/abc`, 200, trainee({ date_of_birth: '1990-13-45', email: 'not an address' })),
      );
      expect(result.problems).toEqual([
        'GET /api/{api_version}/trainees/{trainee_id} 200: /date_of_birth must match format "date"',
        'GET /api/{api_version}/trainees/{trainee_id} 200: /email must match format "email"',
      ]);
    });

    it('does not mutate the document it was given', () => {
      const document = documentFor('v2026.1');
      const before = JSON.stringify(document);
      new OpenApiResponseValidator(document).check(jsonResponse('GET', `${V2026}/trainees/abc`, 200, trainee()));
      expect(JSON.stringify(document)).toBe(before);
    });
  });

  describe('status, media type and body', () => {
    it('reports a status the operation does not document', () => {
      const result = validator.check(jsonResponse('DELETE', `${V2026}/trainees/42`, 200, {}));
      expect(result).toEqual({
        operation: 'DELETE /api/{api_version}/trainees/{trainee_id}',
        problems: ['DELETE /api/{api_version}/trainees/{trainee_id} 200: status 200 is not documented (documented: 204)'],
      });
      expect(validator.check(jsonResponse('GET', `${V2026}/trainees/abc`, 500, {})).problems).toEqual([
        'GET /api/{api_version}/trainees/{trainee_id} 500: status 500 is not documented (documented: 200, 404)',
      ]);
    });

    it('reports a media type the response does not document', () => {
      const result = validator.check({ method: 'GET', url: `${V2026}/trainees`, status: 200, contentType: 'text/html', text: '<p>hi</p>' });
      expect(result.problems).toEqual([
        'GET /api/{api_version}/trainees 200: media type text/html is not documented (documented: application/json)',
      ]);
      const json429 = validator.check(jsonResponse('GET', `${V2026}/trainees`, 429, { message: 'slow down' }));
      expect(json429.problems).toEqual([
        'GET /api/{api_version}/trainees 429: media type application/json is not documented (documented: text/plain)',
      ]);
    });

    it('accepts any media type where */* is documented, and still validates JSON against its own entry', () => {
      const csv = validator.check({ method: 'GET', url: `${V2026}/exports/all`, status: 200, contentType: 'text/csv', text: 'a,b\n1,2\n' });
      expect(csv).toEqual({ operation: 'GET /api/{api_version}/exports/{name}', problems: [] });
      const json = validator.check(jsonResponse('GET', `${V2026}/exports/all`, 200, [1, 2]));
      expect(json.problems).toEqual(['GET /api/{api_version}/exports/{name} 200: (root) must be object']);
    });

    it('reports a body that is not JSON', () => {
      const result = validator.check({
        method: 'GET',
        url: `${V2026}/trainees`,
        status: 200,
        contentType: 'application/json',
        text: '{"data": [',
      });
      expect(result.problems).toHaveLength(1);
      expect(result.problems[0]).toMatch(/^GET \/api\/\{api_version\}\/trainees 200: the body is not valid JSON/);
    });

    it('reports a body without Content-Type', () => {
      const result = validator.check({ ...jsonResponse('GET', `${V2026}/trainees`, 200, { data: [] }), contentType: null });
      expect(result.problems).toEqual(['GET /api/{api_version}/trainees 200: the response has a body but no Content-Type']);
    });

    it('reports an empty body where content is documented, except for HEAD', () => {
      const empty = { url: `${V2026}/trainees`, status: 200, contentType: 'application/json', text: '' };
      expect(validator.check({ ...empty, method: 'GET' }).problems).toEqual([
        'GET /api/{api_version}/trainees 200: the body is empty but the response documents content (application/json)',
      ]);
      expect(validator.check({ ...empty, method: 'HEAD' })).toEqual({ operation: 'GET /api/{api_version}/trainees', problems: [] });
    });

    it('reports a body where the response documents none', () => {
      const result = validator.check(jsonResponse('DELETE', `${V2026}/trainees/42`, 204, { deleted: true }));
      expect(result.problems).toEqual([
        'DELETE /api/{api_version}/trainees/{trainee_id} 204: the response documents no content but the body is not empty',
      ]);
    });
  });

  describe('path matching', () => {
    it('does not match a path whose version parameter is outside its enum', () => {
      const v2025 = jsonResponse('GET', '/api/v2025.0/trainees', 200, { data: [] });
      expect(validator.check(v2025)).toEqual({ operation: null, problems: [] });
      expect(new OpenApiResponseValidator(documentFor('v2025.0')).check(v2025)).toEqual({
        operation: 'GET /api/{api_version}/trainees',
        problems: [],
      });
    });

    it('prefers the template with more literal segments', () => {
      const degrees = validator.check(jsonResponse('GET', `${V2026}/trainees/abc/degrees`, 200, { degrees: [] }));
      expect(degrees).toEqual({ operation: 'GET /api/{api_version}/trainees/{trainee_id}/degrees', problems: [] });
      const placements = validator.check(jsonResponse('GET', `${V2026}/trainees/abc/placements`, 200, { section: 'placements' }));
      expect(placements).toEqual({ operation: 'GET /api/{api_version}/trainees/{trainee_id}/{section}', problems: [] });
      // The degrees schema is the one applied, not the catch-all's.
      expect(validator.check(jsonResponse('GET', `${V2026}/trainees/abc/degrees`, 200, { section: 'x' })).problems).toEqual([
        "GET /api/{api_version}/trainees/{trainee_id}/degrees 200: (root) must have required property 'degrees'",
      ]);
    });

    it('respects path-item and operation-level parameter schemas', () => {
      // Path-item level pattern: upper case does not match GET.
      expect(validator.check(jsonResponse('GET', `${V2026}/trainees/ABC`, 200, trainee())).operation).toBeNull();
      // Operation level overrides it for DELETE: digits only.
      expect(
        validator.check({ method: 'DELETE', url: `${V2026}/trainees/abc`, status: 204, contentType: null, text: '' }).operation,
      ).toBeNull();
      expect(validator.check({ method: 'DELETE', url: `${V2026}/trainees/123`, status: 204, contentType: null, text: '' }).operation).toBe(
        'DELETE /api/{api_version}/trainees/{trainee_id}',
      );
    });

    it('URL-decodes path parameters before checking them', () => {
      const result = validator.check(jsonResponse('GET', `${V2026}/trainees/abc%2D1?x=%2F`, 200, trainee()));
      expect(result.operation).toBe('GET /api/{api_version}/trainees/{trainee_id}');
      expect(validator.check(jsonResponse('GET', `${V2026}/trainees/abc%ZZ`, 200, trainee())).operation).toBeNull();
    });

    it('returns no operation for undocumented paths and methods', () => {
      expect(validator.check(jsonResponse('GET', '/healthz', 200, { ok: true }))).toEqual({ operation: null, problems: [] });
      expect(validator.check(jsonResponse('PUT', `${V2026}/trainees`, 200, {}))).toEqual({ operation: null, problems: [] });
      expect(validator.check(jsonResponse('GET', `${V2026}/trainees/`, 200, {}))).toEqual({ operation: null, problems: [] });
    });

    it('tolerates a .json suffix when nothing else matches, but prefers a literal .json template', () => {
      expect(validator.check(jsonResponse('GET', `${V2026}/trainees.json`, 200, { data: [] }))).toEqual({
        operation: 'GET /api/{api_version}/trainees',
        problems: [],
      });
      expect(validator.check(jsonResponse('GET', `${V2026}/openapi.json`, 200, { openapi: '3.1.0' }))).toEqual({
        operation: 'GET /api/{api_version}/openapi.json',
        problems: [],
      });
    });
  });

  describe('headers', () => {
    const slowDown = { method: 'GET', url: `${V2026}/trainees`, status: 429, contentType: 'text/plain', text: 'Slow down' };

    it('checks documented required headers only when the caller passes headers', () => {
      expect(validator.check(slowDown).problems).toEqual([]);
      expect(validator.check({ ...slowDown, headers: { 'content-type': 'text/plain' } }).problems).toEqual([
        'GET /api/{api_version}/trainees 429: required header Retry-After is missing',
      ]);
      expect(validator.check({ ...slowDown, headers: { 'retry-after': '30' } }).problems).toEqual([]);
    });

    it("checks a present header's value against its schema", () => {
      expect(validator.check({ ...slowDown, headers: { 'Retry-After': 'soon' } }).problems).toEqual([
        'GET /api/{api_version}/trainees 429: header Retry-After (root) must be integer',
      ]);
      expect(validator.check({ ...slowDown, headers: { 'Retry-After': '0' } }).problems).toEqual([
        'GET /api/{api_version}/trainees 429: header Retry-After (root) must be >= 1',
      ]);
    });
  });

  describe('robustness', () => {
    it('compiles each schema once however many responses it checks', () => {
      const compile = jest.spyOn(Ajv2020.prototype, 'compile');
      try {
        const fresh = new OpenApiResponseValidator(documentFor('v2026.1'));
        const response = jsonResponse('GET', `${V2026}/trainees`, 200, { data: [trainee()] });
        fresh.check(response);
        const afterFirst = compile.mock.calls.length;
        expect(afterFirst).toBeGreaterThan(0);
        for (let i = 0; i < 200; i++) fresh.check(response);
        expect(compile.mock.calls.length).toBe(afterFirst);
      } finally {
        compile.mockRestore();
      }
    });

    it('reports an unresolvable $ref as a problem instead of throwing', () => {
      const broken = documentFor('v2026.1') as { components: { responses: Record<string, unknown> } };
      broken.components.responses.TraineeList = { $ref: '#/components/responses/Missing' };
      const result = new OpenApiResponseValidator(broken).check(jsonResponse('GET', `${V2026}/trainees`, 200, { data: [] }));
      expect(result).toEqual({
        operation: 'GET /api/{api_version}/trainees',
        problems: ['GET /api/{api_version}/trainees 200: $ref #/components/responses/Missing cannot be resolved'],
      });
    });

    it('reports a schema $ref that does not resolve', () => {
      const broken = documentFor('v2026.1') as { components: { schemas: Record<string, Record<string, unknown>> } };
      broken.components.schemas.Trainee = { $ref: '#/components/schemas/Nowhere' };
      const result = new OpenApiResponseValidator(broken).check(jsonResponse('GET', `${V2026}/trainees`, 200, { data: [{}] }));
      expect(result.problems).toHaveLength(1);
      expect(result.problems[0]).toMatch(/^GET \/api\/\{api_version\}\/trainees 200: the schema at .* cannot be compiled/);
    });
  });
});

describe('validateOpenApiDocument', () => {
  const minimal = { openapi: '3.1.0', info: { title: 'Minimal', version: '1' }, paths: {} };

  it('accepts a minimal 3.1 document and the test document', () => {
    expect(validateOpenApiDocument(minimal)).toEqual({ valid: true, errors: [] });
    expect(validateOpenApiDocument(documentFor('v2026.1'))).toEqual({ valid: true, errors: [] });
  });

  it('rejects a path item that is not an object', () => {
    const result = validateOpenApiDocument({ ...minimal, paths: { '/x': 'not a path item' } });
    expect(result.valid).toBe(false);
    expect(result.errors).toContainEqual(
      expect.objectContaining({ instancePath: '/paths/~1x', keyword: 'type', message: 'must be object' }),
    );
  });

  it('rejects a 3.1 response without description', () => {
    const result = validateOpenApiDocument({ ...minimal, paths: { '/x': { get: { responses: { '200': {} } } } } });
    expect(result.valid).toBe(false);
    expect(result.errors).toContainEqual(
      expect.objectContaining({ instancePath: '/paths/~1x/get/responses/200', params: { missingProperty: 'description' } }),
    );
  });

  it('rejects a $ref that does not resolve, with the message as the one error', () => {
    const result = validateOpenApiDocument({
      ...minimal,
      paths: { '/x': { get: { responses: { '200': { $ref: '#/components/responses/Nope' } } } } },
    });
    expect(result).toEqual({ valid: false, errors: ["Can't resolve #/components/responses/Nope"] });
  });
});
