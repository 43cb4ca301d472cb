import referenceData from '@app/trainees/contract/reference-data/v2026.1-reference-data-response.json';
import { RunningApi } from '../support/api-harness';

describe('GET /reference-data (docs/reference/API-FACTS.md §17)', () => {
  let api: RunningApi;
  let token: string;

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken('10000070');
  });
  afterAll(() => api.close());

  it('answers every coded list of v2026.1 without a token, as the bare object of the reference', async () => {
    const res = await api.request('GET', '/api/v2026.1/reference-data', null);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual(referenceData);
    expect(Object.keys(res.body)).toContain('withdrawal_reasons');
  });

  it('answers one list with ?field=, and an empty field as the whole body', async () => {
    const sex = await api.request('GET', '/api/v2026.1/reference-data?field=sex', null);
    expect(sex.status).toBe(200);
    expect(sex.body).toEqual(referenceData.sex);
    expect(sex.body.entries.map((e: { code: string }) => e.code)).toEqual(['10', '11', '12', '96', '99']);
    const reasons = await api.request('GET', '/api/v2026.1/reference-data?field=withdrawal_reasons', token);
    expect(reasons.body.triggers).toEqual(['provider', 'trainee']);
    expect((await api.request('GET', '/api/v2026.1/reference-data?field=', null)).body).toEqual(referenceData);
  });

  it.each(['nope', 'constructor', '__proto__'])('answers 404 for the unknown field %s (§17.3)', async (field) => {
    const res = await api.request('GET', `/api/v2026.1/reference-data?field=${field}`, null);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ errors: [{ error: 'NotFound', message: `Reference data field '${field}' not found` }] });
  });

  it('answers 404 in v2025.0, which has no such endpoint (§17.4)', async () => {
    const res = await api.request('GET', '/api/v2025.0/reference-data', null);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ errors: [{ error: 'NotFound', message: "Reference data is not available for version 'v2025.0'" }] });
  });

  it('treats a version that is not served as an unknown route: 401 without a token, 404 naming the served versions with one (§1.4)', async () => {
    expect((await api.request('GET', '/api/v0.1/reference-data', null)).status).toBe(401);
    const res = await api.request('GET', '/api/v0.1/reference-data', token);
    expect(res.status).toBe(404);
    expect(res.body.errors[0].message).toBe("Not found: API version 'v0.1' is not served here; the versions served are v2025.0, v2026.1");
  });
});
