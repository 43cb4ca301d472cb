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

  it('accepts a bare token without the Bearer prefix (docs/reference/API-FACTS.md §2.1)', async () => {
    const res = await api.request('GET', '/api/v2025.0/info', null, undefined, { authorization: token });
    expect(res.status).toBe(200);
  });

  it.each([
    ['no header', undefined],
    ['an unknown token', 'Bearer sandbox_0000000000000000000000000000000000000000000000000000000000000000'],
    ['a lower-case scheme', 'bearer TOKEN'],
    ['an empty bearer', 'Bearer '],
  ])('answers 401 {error} for %s', async (_label, header) => {
    const headers: Record<string, string> = header ? { authorization: header.replace('TOKEN', token) } : {};
    const res = await api.request('GET', '/api/v2025.0/info', null, undefined, headers);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized' });
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

  it.each(['/api/v0.1/info', '/api/v1.0-pre/trainees', '/api/v2025.0/nothing-here', '/api/v2026.1/trainees/abc/unknown'])(
    'answers the 404 Not found shape for %s with a valid token',
    async (path) => {
      const res = await api.request('GET', path, token);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ errors: [{ error: 'NotFound', message: 'Not found' }] });
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

  it('answers 404 for the sandbox-only v2026.1', async () => {
    const res = await api.request('GET', '/api/v2026.1/info', token);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ errors: [{ error: 'NotFound', message: 'Not found' }] });
  });
});
