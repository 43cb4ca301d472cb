/**
 * The response validator (openapi-validator.ts) over the documents of openapi-validator.fixtures.ts:
 * path matching, headers and robustness; and the validation of whole documents
 * (`validateOpenApiDocument`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { OpenApiResponseValidator, validateOpenApiDocument } from './openapi-validator';
import { documentFor, jsonResponse, trainee, V2026 } from './openapi-validator.fixtures';

const validator = new OpenApiResponseValidator(documentFor('v2026.1'));

describe('OpenApiResponseValidator', () => {
  describe('path matching', () => {
    it('holds a path whose version parameter is outside its enum to the operation, which must refuse it', () => {
      const v2025 = jsonResponse('GET', '/api/v2025.0/trainees', 200, { data: [] });
      expect(validator.check(v2025)).toEqual({
        operation: 'GET /api/{api_version}/trainees',
        problems: [
          'GET /api/{api_version}/trainees 200: path parameter api_version breaks its schema, yet the request was not refused with a 4xx',
        ],
      });
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

    it('respects path-item and operation-level parameter schemas: a value outside them must be refused', () => {
      const outside = (status: number) =>
        'GET /api/{api_version}/trainees/{trainee_id} ' +
        `${status}: path parameter trainee_id breaks its schema, yet the request was not refused with a 4xx`;
      // Path-item level pattern: upper case breaks it for GET, so only a 4xx answers it.
      expect(validator.check(jsonResponse('GET', `${V2026}/trainees/ABC`, 200, trainee()))).toEqual({
        operation: 'GET /api/{api_version}/trainees/{trainee_id}',
        problems: [outside(200)],
      });
      const problem = { title: 'Not found', status: 404, type: 'https://example.org/problems/not-found' };
      expect(
        validator.check({ ...jsonResponse('GET', `${V2026}/trainees/ABC`, 404, problem), contentType: 'application/problem+json' })
          .problems,
      ).toEqual([]);
      // Operation level overrides it for DELETE: digits only.
      expect(
        validator.check({ method: 'DELETE', url: `${V2026}/trainees/abc`, status: 204, contentType: null, text: '' }).problems,
      ).toEqual([
        'DELETE /api/{api_version}/trainees/{trainee_id} 204: path parameter trainee_id breaks its schema, yet the request was not refused with a 4xx',
      ]);
      expect(validator.check({ method: 'DELETE', url: `${V2026}/trainees/123`, status: 204, contentType: null, text: '' })).toEqual({
        operation: 'DELETE /api/{api_version}/trainees/{trainee_id}',
        problems: [],
      });
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

    it('reports a header sent that the response does not declare, but not the framing ones', () => {
      const framing = { 'Content-Type': 'text/plain', 'content-length': '9', date: 'Mon, 07 Dec 2026 10:00:00 GMT', connection: 'close' };
      expect(validator.check({ ...slowDown, headers: { ...framing, 'retry-after': '30' } }).problems).toEqual([]);
      expect(
        validator.check({ ...slowDown, headers: { 'retry-after': '30', Location: '/elsewhere', 'x-powered-by': 'x' } }).problems,
      ).toEqual([
        'GET /api/{api_version}/trainees 429: header location is sent but not declared',
        'GET /api/{api_version}/trainees 429: header x-powered-by is sent but not declared',
      ]);
      // A response that declares no header at all.
      expect(
        validator.check({ ...jsonResponse('GET', `${V2026}/trainees`, 200, { data: [] }), headers: { 'retry-after': '1' } }).problems,
      ).toEqual(['GET /api/{api_version}/trainees 200: header retry-after is sent but not declared']);
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
        const fresh = new OpenApiResponseValidator(documentFor('v2026.1'), null);
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

    it('keeps what it compiled on disk: another instance on the same document compiles nothing and finds the same problems', () => {
      const cacheDir = mkdtempSync(join(tmpdir(), 'openapi-validators-'));
      const compile = jest.spyOn(Ajv2020.prototype, 'compile');
      try {
        const bad = jsonResponse('GET', `${V2026}/trainees`, 200, { data: [{ ...trainee(), trn: 7 }] });
        const good = jsonResponse('GET', `${V2026}/trainees`, 200, { data: [trainee()] });
        const first = new OpenApiResponseValidator(documentFor('v2026.1'), cacheDir);
        const problems = first.check(bad).problems;
        expect(problems).toEqual([expect.stringContaining('/data/0/trn must be string')]);
        expect(compile.mock.calls.length).toBeGreaterThan(0);
        compile.mockClear();
        const second = new OpenApiResponseValidator(documentFor('v2026.1'), cacheDir);
        expect(second.check(bad).problems).toEqual(problems);
        expect(second.check(good).problems).toEqual([]);
        expect(compile).not.toHaveBeenCalled();
        const changed = documentFor('v2026.1') as { info: { title: string } };
        changed.info.title = 'Another document';
        expect(new OpenApiResponseValidator(changed, cacheDir).check(bad).problems).toEqual(problems);
        expect(compile.mock.calls.length).toBeGreaterThan(0);
      } finally {
        compile.mockRestore();
        rmSync(cacheDir, { recursive: true, force: true });
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
