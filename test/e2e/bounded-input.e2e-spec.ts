import { JSON_MAX_DEPTH, JSON_MAX_ITEMS } from '../../apps/api/src/bodies/json-body';
import { PER_PAGE_MAX } from '../../apps/api/src/trainees/list-trainees/list-trainees.params';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';

/** `value` wrapped in `depth` arrays, as JSON text (built as text: no recursion on either side). */
/** A text far past every field's bound and, twice in one body, still under the body limit (BODY_MAX_BYTES): 200 kB. */
const LONG = 200 * 1024;
const nestedArray = (depth: number, value = '"01"'): string => `${'['.repeat(depth)}${value}${']'.repeat(depth)}`;
const INTERNAL = /Maximum call stack|RangeError|TypeError|SQLITE|datatype mismatch|\n\s+at /;

/**
 * docs/DESIGN.md ruling 14 and property 7: every input is bounded before it costs work (list
 * paging, body nesting and item counts, free-text lengths and formats, placements and degrees per
 * trainee), and no answer quotes an unbounded value or an internal exception.
 */
describe('bounded input (docs/DESIGN.md ruling 14)', () => {
  let api: RunningApi;
  let token: string;
  let traineeId: string;
  const base = '/api/v2026.1/trainees';

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken('10000091');
    const created = await api.request('POST', base, token, uniqueTrainee('v2026.1'));
    traineeId = created.body.data.trainee_id;
  });
  afterAll(() => api.close());

  function expectNoInternalMessage(res: { status: number; text: string }): void {
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.text).not.toMatch(INTERNAL);
    expect(res.text.length).toBeLessThan(2000);
  }

  describe('GET /trainees paging', () => {
    it.each(['9223372036854775808', String(PER_PAGE_MAX + 1), '100000'])(
      'answers per_page=%s with the list 422 naming the maximum',
      async (v) => {
        const res = await api.request('GET', `${base}?per_page=${v}`, token);
        expect(res.status).toBe(422);
        expect(res.body).toEqual({
          message: 'Validation failed: 1 error prohibited this request being run',
          errors: { per_page: [`must be less than or equal to ${PER_PAGE_MAX}`] },
        });
      },
    );

    it.each(['1e400', '99999999999999999999', '-3', '2.5', 'abc', '9007199254740993'])('answers page=%s without a 5xx', async (v) => {
      const res = await api.request('GET', `${base}?page=${v}&per_page=${PER_PAGE_MAX}`, token);
      expect([200, 404]).toContain(res.status);
    });

    it('answers a page past the last with 404', async () => {
      const res = await api.request('GET', `${base}?page=99999999999999999999`, token);
      expect(res.status).toBe(404);
    });

    it('states the maximum in the served OpenAPI document', async () => {
      const doc = (await (await fetch(`${api.baseUrl}/api/v2026.1/openapi.json`)).json()) as {
        paths: Record<string, { get?: { parameters?: { name: string; schema: { maximum?: number } }[] } }>;
      };
      const list = Object.entries(doc.paths).find(([p]) => p.endsWith('/trainees'))![1];
      expect(list.get!.parameters!.find((p) => p.name === 'per_page')!.schema.maximum).toBe(PER_PAGE_MAX);
    });
  });

  describe('body nesting and item counts', () => {
    it(`answers a body nested deeper than ${JSON_MAX_DEPTH} with 400 naming the limit`, async () => {
      const res = await api.request('POST', base, token, `{"data":{"sex":${nestedArray(20_000)}}}`);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].error).toBe('BadRequest');
      expect(res.body.errors[0].message).toContain(String(JSON_MAX_DEPTH));
      expectNoInternalMessage(res);
    });

    it(`answers an array of more than ${JSON_MAX_ITEMS} items with 400 naming the limit`, async () => {
      const res = await api.request(
        'POST',
        base,
        token,
        `{"data":{"sex":[${Array(JSON_MAX_ITEMS + 1)
          .fill('1')
          .join(',')}]}}`,
      );
      expect(res.status).toBe(400);
      expect(res.body.errors[0].message).toContain(JSON_MAX_ITEMS.toLocaleString('en-GB'));
    });

    it('states the bounds in the served OpenAPI document', async () => {
      const doc = (await (await fetch(`${api.baseUrl}/api/v2026.1/openapi.json`)).json()) as {
        components: { schemas: Record<string, { description?: string; properties: Record<string, { maxLength?: number }> }> };
      };
      const { BadRequest, TraineeUpdateInput, DegreeInput } = doc.components.schemas;
      expect(BadRequest.description).toContain(`${JSON_MAX_DEPTH} levels`);
      expect(TraineeUpdateInput.properties.ni_number.maxLength).toBe(13);
      expect(TraineeUpdateInput.properties.previous_last_name.maxLength).toBe(255);
      expect(DegreeInput.properties.other_grade.maxLength).toBe(255);
    });

    it('answers a coded field nested within the limit with a 422 that quotes a bounded value', async () => {
      const res = await api.request('POST', base, token, `{"data":{"sex":${nestedArray(JSON_MAX_DEPTH - 3)}}}`);
      expect(res.status).toBe(422);
      expectNoInternalMessage(res);
    });

    it('answers a degree whose uk_degree is nested deep with a 4xx and no internal message', async () => {
      for (const depth of [JSON_MAX_DEPTH - 4, 5_000]) {
        const res = await api.request('POST', `${base}/${traineeId}/degrees`, token, `{"data":{"uk_degree":${nestedArray(depth)}}}`);
        expectNoInternalMessage(res);
      }
    });
  });

  it('refuses a placement beyond the 20 a trainee holds, and a degree beyond 10, with 422', async () => {
    const placements = Array.from({ length: 20 }, (_, i) => ({ urn: String(300000 + i), name: `School ${i}` }));
    const degrees = Array.from({ length: 10 }, (_, i) => ({
      grade: '02',
      subject: '100425',
      institution: '0116',
      uk_degree: '083',
      graduation_year: String(1990 + i),
    }));
    const created = await api.request(
      'POST',
      base,
      token,
      uniqueTrainee('v2026.1', { placements_attributes: placements, degrees_attributes: degrees }),
    );
    expect(created.status).toBe(201);
    const id = created.body.data.trainee_id;
    const placement = await api.request('POST', `${base}/${id}/placements`, token, { data: { urn: '123456', name: 'Elm School' } });
    expect(placement.status).toBe(422);
    expect(placement.body.errors[0].message).toContain('maximum is 20 placements');
    const degree = await api.request('POST', `${base}/${id}/degrees`, token, { data: { ...degrees[0], graduation_year: '2010' } });
    expect(degree.status).toBe(422);
    expect(degree.body.errors[0].message).toContain('maximum is 10 degrees');
  });

  describe('free text', () => {
    it('answers a PATCH with a 200 kB ni_number with 422, without quoting it', async () => {
      const res = await api.request('PATCH', `${base}/${traineeId}`, token, { data: { ni_number: 'A'.repeat(LONG) } });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ errors: [{ error: 'UnprocessableEntity', message: 'ni_number is invalid' }] });
    });

    it('accepts a National Insurance number with or without spaces, and stores it', async () => {
      for (const ni of ['QQ 12 34 56 C', 'ab123456d']) {
        const res = await api.request('PATCH', `${base}/${traineeId}`, token, { data: { ni_number: ni } });
        expect(res.status).toBe(200);
        expect(res.body.data.ni_number).toBe(ni);
      }
    });

    it.each(['previous_last_name', 'training_partner_urn', 'employing_school_urn'])('answers a 200 kB %s with 422', async (field) => {
      const res = await api.request('PATCH', `${base}/${traineeId}`, token, { data: { [field]: 'x'.repeat(LONG) } });
      expect(res.status).toBe(422);
      expect(res.text.length).toBeLessThan(500);
    });

    it('answers too many disabilityN keys with 422', async () => {
      const data: Record<string, string> = {};
      for (let i = 1; i <= 200; i++) data[`disability${i}`] = '58';
      const res = await api.request('PATCH', `${base}/${traineeId}`, token, { data });
      expect(res.status).toBe(422);
      expect(res.text.length).toBeLessThan(500);
    });

    it('answers a 200 kB placement name and a long degree institution text with 422', async () => {
      const placement = await api.request('POST', `${base}/${traineeId}/placements`, token, { data: { name: 'x'.repeat(LONG) } });
      expect(placement.status).toBe(422);
      expect(placement.text.length).toBeLessThan(500);
      const degree = await api.request('POST', `${base}/${traineeId}/degrees`, token, {
        data: { subject: 'x'.repeat(LONG), other_grade: 'y'.repeat(LONG) },
      });
      expect(degree.status).toBe(422);
      expect(degree.text.length).toBeLessThan(1000);
    });
  });
});
