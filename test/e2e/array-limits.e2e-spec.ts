import { DEGREES_ATTRIBUTES_MAX_ITEMS, PLACEMENTS_ATTRIBUTES_MAX_ITEMS, WITHDRAWAL_REASONS_MAX_ITEMS } from '@app/trainees/record';
import { JSON_MAX_ITEMS } from '../../apps/api/src/bodies/json-body';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee, type Version } from '../support/trainee-input';

const VERSIONS: Version[] = ['v2025.0', 'v2026.1'];
const PLACEMENTS_TOO_LONG = `placements_attributes is too long (maximum is ${PLACEMENTS_ATTRIBUTES_MAX_ITEMS} placements)`;
const DEGREES_TOO_LONG = `degrees_attributes is too long (maximum is ${DEGREES_ATTRIBUTES_MAX_ITEMS} degrees)`;

/** `n` placements at URNs the schools directory does not know. */
const placements = (n: number): Record<string, unknown>[] =>
  Array.from({ length: n }, (_, i) => ({ urn: String(300000 + i), name: `School ${i}` }));
/** `n` degrees that differ in their graduation year, so none duplicates another. */
const degrees = (n: number): Record<string, unknown>[] =>
  Array.from({ length: n }, (_, i) => ({
    grade: '02',
    subject: '100425',
    institution: '0116',
    uk_degree: '083',
    graduation_year: String(1990 + i),
  }));

/**
 * docs/DESIGN.md ruling 14: every array of a write body has a maximum, enforced as a 422 in the
 * contract's error shape (plain, and keyed by field with `Enhanced-Errors: true`) and stated as
 * `maxItems` in the served OpenAPI document.
 */
describe('the maximum of every array in a write body (docs/DESIGN.md ruling 14)', () => {
  let api: RunningApi;
  let token: string;

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken('10000090');
  });
  afterAll(() => api.close());

  describe.each(VERSIONS)('%s', (version) => {
    const base = `/api/${version}/trainees`;

    it(`creates a trainee with ${PLACEMENTS_ATTRIBUTES_MAX_ITEMS} nested placements and ${DEGREES_ATTRIBUTES_MAX_ITEMS} degrees`, async () => {
      const res = await api.request(
        'POST',
        base,
        token,
        uniqueTrainee(version, {
          placements_attributes: placements(PLACEMENTS_ATTRIBUTES_MAX_ITEMS),
          degrees_attributes: degrees(DEGREES_ATTRIBUTES_MAX_ITEMS),
        }),
      );
      expect(res.status).toBe(201);
      expect(res.body.data.placements).toHaveLength(PLACEMENTS_ATTRIBUTES_MAX_ITEMS);
      expect(res.body.data.degrees).toHaveLength(DEGREES_ATTRIBUTES_MAX_ITEMS);
    });

    it('answers a create with one nested placement more with a 422 naming the maximum, and writes nothing', async () => {
      const body = uniqueTrainee(version, { placements_attributes: placements(PLACEMENTS_ATTRIBUTES_MAX_ITEMS + 1) });
      const res = await api.request('POST', base, token, body);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ errors: [{ error: 'UnprocessableEntity', message: PLACEMENTS_TOO_LONG }] });
      // Nothing was registered: the same person at the maximum is a new trainee, not a duplicate (409).
      const retry = await api.request('POST', base, token, {
        data: { ...body.data, placements_attributes: placements(PLACEMENTS_ATTRIBUTES_MAX_ITEMS) },
      });
      expect(retry.status).toBe(201);
    });

    it('answers one nested degree more with a 422 naming the maximum', async () => {
      const res = await api.request(
        'POST',
        base,
        token,
        uniqueTrainee(version, { degrees_attributes: degrees(DEGREES_ATTRIBUTES_MAX_ITEMS + 1) }),
      );
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ errors: [{ error: 'UnprocessableEntity', message: DEGREES_TOO_LONG }] });
    });

    it('keys the bounds by attribute with Enhanced-Errors: true', async () => {
      const body = uniqueTrainee(version, {
        first_names: 'x'.repeat(61),
        placements_attributes: placements(PLACEMENTS_ATTRIBUTES_MAX_ITEMS + 1),
        degrees_attributes: degrees(DEGREES_ATTRIBUTES_MAX_ITEMS + 1),
      });
      const res = await api.request('POST', base, token, body, { 'enhanced-errors': 'true' });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        message: 'Validation failed: 3 errors prohibited this trainee from being saved',
        errors: {
          first_names: ['is too long (maximum is 60 characters)'],
          degrees_attributes: [`is too long (maximum is ${DEGREES_ATTRIBUTES_MAX_ITEMS} degrees)`],
          placements_attributes: [`is too long (maximum is ${PLACEMENTS_ATTRIBUTES_MAX_ITEMS} placements)`],
        },
      });
    });

    it(`answers a withdrawal with more than ${WITHDRAWAL_REASONS_MAX_ITEMS} reasons with a 422, and withdraws with ${WITHDRAWAL_REASONS_MAX_ITEMS}`, async () => {
      const created = await api.request('POST', base, token, uniqueTrainee(version));
      const id = created.body.data.trainee_id;
      const dateField = version === 'v2025.0' ? 'withdraw_date' : 'withdrawal_date';
      const withdrawal = (n: number) => ({
        data: {
          [dateField]: '2026-01-10',
          trigger: 'trainee',
          future_interest: 'no',
          reasons: Array.from({ length: n }, () => 'does_not_want_to_become_a_teacher'),
        },
      });
      const over = await api.request('POST', `${base}/${id}/withdraw`, token, withdrawal(WITHDRAWAL_REASONS_MAX_ITEMS + 1));
      expect(over.status).toBe(422);
      expect(over.body).toEqual({
        errors: [{ error: 'UnprocessableEntity', message: `reasons is too long (maximum is ${WITHDRAWAL_REASONS_MAX_ITEMS} reasons)` }],
      });
      expect((await api.request('GET', `${base}/${id}`, token)).body.data.state).toBe('submitted_for_trn');
      const atMax = await api.request('POST', `${base}/${id}/withdraw`, token, withdrawal(WITHDRAWAL_REASONS_MAX_ITEMS));
      expect(atMax.status).toBe(200);
      expect(atMax.body.data.state).toBe('withdrawn');
    });

    it('states each maximum as maxItems in the served OpenAPI document', async () => {
      const doc = (await (await fetch(`${api.baseUrl}/api/${version}/openapi.json`)).json()) as {
        components: { schemas: Record<string, { properties: Record<string, { maxItems?: number }> }> };
      };
      const { TraineeInput, WithdrawalInput } = doc.components.schemas;
      expect(TraineeInput.properties.placements_attributes.maxItems).toBe(PLACEMENTS_ATTRIBUTES_MAX_ITEMS);
      expect(TraineeInput.properties.degrees_attributes.maxItems).toBe(DEGREES_ATTRIBUTES_MAX_ITEMS);
      expect(WithdrawalInput.properties.reasons.maxItems).toBe(WITHDRAWAL_REASONS_MAX_ITEMS);
    });
  });

  it(`answers ${JSON_MAX_ITEMS} nested placements with the 422, 5,000 with the parser's 400, and the create of the incident, 50,000, with 413 before it is parsed`, async () => {
    const createWith = (n: number) =>
      api.request('POST', '/api/v2026.1/trainees', token, uniqueTrainee('v2026.1', { placements_attributes: placements(n) }));
    const atParserMax = await createWith(JSON_MAX_ITEMS);
    expect(atParserMax.status).toBe(422);
    expect(atParserMax.body).toEqual({ errors: [{ error: 'UnprocessableEntity', message: PLACEMENTS_TOO_LONG }] });
    const res = await createWith(5_000);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].error).toBe('BadRequest');
    const incident = await createWith(50_000);
    expect(incident.status).toBe(413);
    expect(incident.body.errors[0].error).toBe('PayloadTooLarge');
  });
});
