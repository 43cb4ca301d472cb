import fc from 'fast-check';
import { BODY_MAX_BYTES } from '@app/trainees/record';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';

/**
 * docs/DESIGN.md property 7: bad input never yields a 5xx, a stack trace or a partial write; it gets the
 * spec's error shape. Random JSON is sent to every write endpoint and to the list's parameters.
 */
describe('bad input over HTTP (docs/DESIGN.md property 7)', () => {
  let api: RunningApi;
  let token: string;
  let traineeId: string;

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken('10000040');
    const created = await api.request('POST', '/api/v2026.1/trainees', token, uniqueTrainee('v2026.1'));
    traineeId = created.body.data.trainee_id;
  });
  afterAll(() => api.close());

  const keys = [
    'first_names',
    'last_name',
    'date_of_birth',
    'email',
    'sex',
    'training_route',
    'itt_start_date',
    'itt_end_date',
    'course_subject_1',
    'course_subject_one',
    'course_age_range',
    'itt_aim',
    'application_id',
    'course_year',
    'ethnicity',
    'disability1',
    'nationality',
    'degrees_attributes',
    'placements_attributes',
    'funding_method',
    'fund_code',
    'statsagency_id',
  ];
  const dataArb = fc.oneof(
    fc.jsonValue(),
    fc.dictionary(fc.constantFrom(...keys), fc.jsonValue(), { maxKeys: 8 }),
    fc.record({ data: fc.dictionary(fc.constantFrom(...keys), fc.jsonValue(), { maxKeys: 10 }) }),
  );

  function expectErrorShape(status: number, body: unknown): void {
    expect(status).toBeLessThan(500);
    if (status >= 400) {
      const b = body as { errors?: { error: string; message: string }[] };
      expect(Array.isArray(b.errors)).toBe(true);
      for (const e of b.errors!) {
        expect(typeof e.error).toBe('string');
        expect(typeof e.message).toBe('string');
        expect(e.message).not.toMatch(/\n\s+at /);
      }
    }
  }

  it('POST /trainees and PATCH /trainees/{id} answer random JSON with a 2xx or a spec-shaped 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(dataArb, fc.constantFrom('v2025.0', 'v2026.1'), async (body, version) => {
        const created = await api.request('POST', `/api/${version}/trainees`, token, body);
        expectErrorShape(created.status, created.body);
        const patched = await api.request('PATCH', `/api/${version}/trainees/${traineeId}`, token, body);
        expectErrorShape(patched.status, patched.body);
      }),
      { numRuns: 150 },
    );
  });

  it('GET /trainees answers random parameters with 200, 404 or the list 422 shape', async () => {
    const params = ['academic_cycle', 'status', 'status[]', 'since', 'has_trn', 'page', 'per_page', 'sort_order'];
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...params), fc.string({ maxLength: 12 }), { maxKeys: 5 }), async (q) => {
        const qs = new URLSearchParams(q).toString();
        const res = await api.request('GET', `/api/v2025.0/trainees?${qs}`, token);
        expect([200, 404, 422]).toContain(res.status);
        if (res.status === 422) {
          expect(typeof res.body.message).toBe('string');
          expect(typeof res.body.errors).toBe('object');
        }
      }),
      { numRuns: 150 },
    );
  });

  it(`answers a body over ${BODY_MAX_BYTES} bytes with 413 in the error shape, and reads one of exactly that size`, async () => {
    /** A create body of exactly `bytes` bytes: an unknown key padded to the size (ignored, API-FACTS.md §5.3). */
    const bodyOf = (bytes: number) => {
      const shell = JSON.stringify({ data: { unknown: '' } });
      return JSON.stringify({ data: { unknown: 'x'.repeat(bytes - shell.length) } });
    };
    const over = await api.request('POST', '/api/v2025.0/trainees', token, bodyOf(BODY_MAX_BYTES + 1));
    expect(over.status).toBe(413);
    expect(over.body.errors[0].error).toBe('PayloadTooLarge');
    const at = await api.request('POST', '/api/v2025.0/trainees', token, bodyOf(BODY_MAX_BYTES));
    expect(at.status).toBe(422);
    expect(at.body.errors[0].error).toBe('UnprocessableEntity');
  });
});
