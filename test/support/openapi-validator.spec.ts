/**
 * The response validator (openapi-validator.ts) over small hand-written OpenAPI 3.1 documents,
 * one per API version, shaped like the service's (openapi-validator.fixtures.ts): conforming
 * responses, schema violations, and the checks of status, media type and body.
 */
import { OpenApiResponseValidator } from './openapi-validator';
import { documentFor, jsonResponse, trainee, V2026 } from './openapi-validator.fixtures';

const validator = new OpenApiResponseValidator(documentFor('v2026.1'));

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
});
