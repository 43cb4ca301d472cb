import { RunningApi } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';

const DEGREE = { grade: '02', subject: '100425', institution: '0116', uk_degree: '083', graduation_year: 'soon' };

describe('Enhanced-Errors: true on trainee create and update (docs/reference/API-FACTS.md §5.4)', () => {
  let api: RunningApi;
  let token: string;
  const enhanced = { 'enhanced-errors': 'true' };

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken('10000080');
  });
  afterAll(() => api.close());

  const badCreate = (version: 'v2025.0' | 'v2026.1') =>
    uniqueTrainee(version, {
      first_names: 'x'.repeat(61),
      degrees_attributes: [DEGREE],
      placements_attributes: [{ urn: '654321', name: '' }],
    });

  it('keys the errors by field in v2026.1, nested degrees and placements grouped', async () => {
    const res = await api.request('POST', '/api/v2026.1/trainees', token, badCreate('v2026.1'), enhanced);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: 'Validation failed: 3 errors prohibited this trainee from being saved',
      errors: {
        first_names: ['is too long (maximum is 60 characters)'],
        degrees_attributes: { graduation_year: ['is invalid'] },
        placements_attributes: { name: ["can't be blank"] },
      },
    });
  });

  it('keeps degree errors top-level and placement errors as a list in v2025.0', async () => {
    const res = await api.request('POST', '/api/v2025.0/trainees', token, badCreate('v2025.0'), enhanced);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      first_names: ['is too long (maximum is 60 characters)'],
      graduation_year: ['is invalid'],
      placements_attributes: ["name can't be blank"],
    });
  });

  it('changes nothing without the header, nor for a missing data, a duplicate or another endpoint', async () => {
    const plain = await api.request('POST', '/api/v2026.1/trainees', token, badCreate('v2026.1'));
    expect(plain.status).toBe(422);
    expect(plain.body.errors[0]).toEqual({ error: 'UnprocessableEntity', message: 'first_names is too long (maximum is 60 characters)' });
    const missing = await api.request('POST', '/api/v2026.1/trainees', token, { data: {} }, enhanced);
    expect(missing.body).toEqual({
      errors: [{ error: 'UnprocessableEntity', message: 'Param is missing or the value is empty or invalid: data' }],
    });
    const body = uniqueTrainee('v2026.1');
    const created = await api.request('POST', '/api/v2026.1/trainees', token, body, enhanced);
    expect(created.status).toBe(201);
    const duplicate = await api.request('POST', '/api/v2026.1/trainees', token, body, enhanced);
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.errors).toEqual([{ error: 'Conflict', message: 'This trainee is already in Register' }]);
    const id = created.body.data.trainee_id;
    const degree = await api.request('POST', `/api/v2026.1/trainees/${id}/degrees`, token, { data: { ...DEGREE, subject: 'x' } }, enhanced);
    expect(degree.status).toBe(422);
    expect(Array.isArray(degree.body.errors)).toBe(true);
  });

  it('applies to PUT and PATCH of a trainee', async () => {
    const created = await api.request('POST', '/api/v2026.1/trainees', token, uniqueTrainee('v2026.1'));
    const id = created.body.data.trainee_id;
    for (const method of ['PUT', 'PATCH']) {
      const res = await api.request(method, `/api/v2026.1/trainees/${id}`, token, { data: { email: 'bad', sex: '' } }, enhanced);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        message: 'Validation failed: 2 errors prohibited this trainee from being saved',
        errors: { sex: ["can't be blank"], email: ['Enter an email address in the correct format, like name@example.com'] },
      });
    }
  });
});
