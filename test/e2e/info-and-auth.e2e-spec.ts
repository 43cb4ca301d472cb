import { uniqueTrainee } from '../support/trainee-input';
import { RunningApi } from '../support/api-harness';

describe('GET /info, authentication and unknown routes (docs/spec/trainee-records-api.md "Authentication", docs/reference/API-FACTS.md §1, §2, §16)', () => {
  let api: RunningApi;
  let token: string;

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken('10000002');
  });
  afterAll(() => api.close());

  it.each(['v2025.0', 'v2026.1'])('answers %s /info with the requested and latest version', async (version) => {
    const res = await api.request('GET', `/api/${version}/info`, token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', version: { requested: version, latest: 'v2026.1' } });
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
  });

  it('tolerates a .json suffix on API paths (docs/reference/API-FACTS.md §1.9)', async () => {
    const res = await api.request('GET', '/api/v2026.1/info.json', token);
    expect(res.status).toBe(200);
    expect(res.body.version.requested).toBe('v2026.1');
  });

  it.each([
    ['no header', undefined],
    ['an unknown token', 'Bearer sandbox_0000000000000000000000000000000000000000000000000000000000000000'],
    ['a lower-case scheme', 'bearer TOKEN'],
    ['an empty bearer', 'Bearer '],
    ['another scheme', 'Token TOKEN'],
  ])('answers 401 {error} for %s', async (_label, header) => {
    const headers: Record<string, string> = header ? { authorization: header.replace('TOKEN', token) } : {};
    const res = await api.request('GET', '/api/v2025.0/info', null, undefined, headers);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized' });
  });

  it.each([
    ['a bare token, without the scheme', 'TOKEN'],
    ['two spaces after the scheme', 'Bearer  TOKEN'],
    ['white space around the token', 'Bearer TOKEN  '],
  ])('takes %s, as the real service does (docs/DESIGN.md ruling 20)', async (_label, header) => {
    const res = await api.request('GET', '/api/v2025.0/info', null, undefined, { authorization: header.replace('TOKEN', token) });
    expect(res.status).toBe(200);
  });

  it('refuses a revoked token', async () => {
    const other = await api.providerToken('10000003');
    const tokens = await api.infra.readModel.listTokens('10000003');
    expect((await api.request('GET', '/api/v2025.0/info', other)).status).toBe(200);
    await api.infra.providers.revokeToken(tokens[tokens.length - 1].token_id);
    await api.infra.catchUp();
    const res = await api.request('GET', '/api/v2025.0/info', other);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized' });
  });

  it.each(['/api/v2025.0/nothing-here', '/api/v2026.1/trainees/abc/unknown'])(
    'answers the 404 Not found shape for %s with a valid token',
    async (path) => {
      const res = await api.request('GET', path, token);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ errors: [{ error: 'NotFound', message: 'Not found' }] });
    },
  );

  it.each([
    ['/api/v0.1/info', 'v0.1'],
    ['/api/v1.0-pre/trainees', 'v1.0-pre'],
    ['/api/v2025.0-rc/info', 'v2025.0-rc'],
  ])(
    'answers %s, a version that is not served, in the 404 shape naming the versions served (docs/reference/API-FACTS.md §1.4)',
    async (path, version) => {
      const res = await api.request('GET', path, token);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        errors: [
          {
            error: 'NotFound',
            message: `Not found: API version '${version}' is not served here; the versions served are v2025.0, v2026.1`,
          },
        ],
      });
    },
  );

  it('answers 401 before 404 for an unknown path under a version-like segment', async () => {
    const res = await api.request('GET', '/api/v0.1/info', null);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized' });
  });

  it('answers an unsupported method on a real path (DELETE /trainees/{id}) with 404 Not found', async () => {
    const res = await api.request('DELETE', '/api/v2025.0/trainees/abc', token);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ errors: [{ error: 'NotFound', message: 'Not found' }] });
  });

  it('answers a non-version segment with the generic 404, without authentication (docs/reference/API-FACTS.md §1.5)', async () => {
    const res = await api.request('GET', '/api/latest/info', null);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Resource not found' });
  });
});

describe('APP_ENV=production serves production versions only', () => {
  let api: RunningApi;
  let token: string;

  beforeAll(async () => {
    api = await RunningApi.start({ appEnv: 'production' });
    token = await api.providerToken('10000004');
  });
  afterAll(() => api.close());

  it('serves v2025.0 and reports it as latest', async () => {
    const res = await api.request('GET', '/api/v2025.0/info', token);
    expect(res.status).toBe(200);
    expect(res.body.version).toEqual({ requested: 'v2025.0', latest: 'v2025.0' });
  });

  it('answers 404 for the sandbox-only v2026.1, naming the version served', async () => {
    const res = await api.request('GET', '/api/v2026.1/info', token);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      errors: [{ error: 'NotFound', message: "Not found: API version 'v2026.1' is not served here; the versions served are v2025.0" }],
    });
  });
});

describe('a configured allow-list of versions with the v2025.0-rc alias (docs/reference/API-FACTS.md §1.2, §1.3)', () => {
  let api: RunningApi;
  let token: string;

  beforeAll(async () => {
    api = await RunningApi.start({ apiVersions: ['v2025.0-rc', 'v2026.1'] });
    token = await api.providerToken('10000005');
  });
  afterAll(() => api.close());

  it('answers the alias as v2025.0, and GET /info echoes the alias as requested', async () => {
    const info = await api.request('GET', '/api/v2025.0-rc/info', token);
    expect(info.status).toBe(200);
    expect(info.body).toEqual({ status: 'ok', version: { requested: 'v2025.0-rc', latest: 'v2026.1' } });
    const created = await api.request('POST', '/api/v2025.0-rc/trainees', token, uniqueTrainee('v2025.0'));
    expect(created.status).toBe(201);
    expect(created.body.data).toHaveProperty('course_subject_one');
    expect(created.body.data).not.toHaveProperty('course_subject_1');
  });

  it('does not serve a version left out of the list', async () => {
    const res = await api.request('GET', '/api/v2025.0/info', token);
    expect(res.status).toBe(404);
    expect(res.body.errors[0].message).toBe(
      "Not found: API version 'v2025.0' is not served here; the versions served are v2025.0-rc, v2026.1",
    );
  });
});
