import { createHash } from 'node:crypto';
import { duplicateGuardKey } from '@app/trainees/decider';
import { keyedGuardNames, TRAINEE_WRITE_PORTS, type TraineeWritePorts } from '@app/trainees/write';
import { deriveKey, type ServiceKeyring } from '@app/runtime/process';
import { SERVICE_KEY } from '../../apps/api/src/composition/tokens';
import { RunningApi } from '../support/api-harness';
import { requestExample, uniqueTrainee, type Version } from '../support/trainee-input';

const VERSIONS: Version[] = ['v2025.0', 'v2026.1'];
const SUBJECT_1: Record<Version, string> = { 'v2025.0': 'course_subject_one', 'v2026.1': 'course_subject_1' };

describe('trainees end to end over HTTP (docs/spec/trainee-records-api.md "POST /trainees", "GET /trainees/{trainee_id}", "PUT or PATCH /trainees/{trainee_id}")', () => {
  let api: RunningApi;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken('10000010');
    otherToken = await api.providerToken('10000011');
  });
  afterAll(() => api.close());

  describe.each(VERSIONS)('%s', (version) => {
    const base = `/api/${version}/trainees`;

    it('creates the OpenAPI request example (201) and reads it back through GET and the list with the same values', async () => {
      // The two examples describe the same person on the same route and cycle: one provider each.
      const exampleToken = await api.providerToken(version === 'v2025.0' ? '10000012' : '10000013');
      const example = requestExample(version);
      const created = await api.request('POST', base, exampleToken, example);
      expect(created.status).toBe(201);
      const t = created.body.data;
      expect(t.trainee_id).toMatch(/^[1-9A-HJ-NP-Za-km-z]{24}$/);
      expect(t).toMatchObject({
        first_names: 'John',
        middle_names: 'Ryan',
        last_name: 'Doe',
        date_of_birth: '1990-01-01',
        email: 'john.doe@example.com',
        sex: '11',
        training_route: '11',
        itt_start_date: '2025-08-01',
        itt_end_date: '2027-07-31',
        trainee_start_date: '2025-08-01',
        state: 'submitted_for_trn',
        trn: null,
        record_source: 'api',
        ukprn: version === 'v2025.0' ? '10000012' : '10000013',
        statsagency_id: '0310261553101',
        provider_trainee_id: '99157234/2/01',
        itt_aim: '202',
        itt_qualification_aim: '001',
        fund_code: '2',
        funding_method: '6',
        created_from_legacy: false,
      });
      expect(t.submitted_for_trn_at).toBe(t.created_at);
      expect(t.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(t.placements).toHaveLength(1);
      expect(t.placements[0]).toMatchObject({ urn: '900020', name: 'Establishment does not have a URN', address: null });
      expect(t.degrees).toHaveLength(1);
      expect(t.degrees[0]).toMatchObject({ subject: '100425', institution: '0116', uk_degree: '083', grade: '02', graduation_year: 2003 });
      expect(t[SUBJECT_1[version]]).toBeDefined();

      const read = await api.request('GET', `${base}/${t.trainee_id}`, exampleToken);
      expect(read.status).toBe(200);
      expect(read.body.data).toEqual(t);

      const list = await api.request('GET', `${base}?academic_cycle=2025`, exampleToken);
      expect(list.status).toBe(200);
      const item = list.body.data.find((x: { trainee_id: string }) => x.trainee_id === t.trainee_id);
      const { placements: _p, degrees: _d, ...withoutChildren } = t;
      expect(item).toEqual(withoutChildren);
      expect(item.placements).toBeUndefined();
    });

    it('names the version-dependent fields as the version does', async () => {
      const created = await api.request('POST', base, token, uniqueTrainee(version));
      expect(created.status).toBe(201);
      const t = created.body.data;
      if (version === 'v2026.1') {
        expect(Object.keys(t)).toEqual(
          expect.arrayContaining([
            'course_subject_1',
            'withdrawal_date',
            'training_partner_urn',
            'withdrawal_safeguarding_concern_reasons',
          ]),
        );
        expect(t).not.toHaveProperty('course_subject_one');
        expect(t).not.toHaveProperty('lead_partner_urn');
      } else {
        expect(Object.keys(t)).toEqual(expect.arrayContaining(['course_subject_one', 'withdraw_date', 'lead_partner_urn']));
        expect(t).not.toHaveProperty('course_subject_1');
        expect(t).not.toHaveProperty('withdrawal_safeguarding_concern_reasons');
      }
    });

    it('answers 409 with the existing trainee in data for a duplicate, and stores nothing', async () => {
      const body = uniqueTrainee(version);
      const first = await api.request('POST', base, token, body);
      expect(first.status).toBe(201);
      const again = uniqueTrainee(version, {
        first_names: String(body.data.first_names).toUpperCase() + '!',
        last_name: String(body.data.last_name).toLowerCase(),
        email: 'someone.else@example.com',
        date_of_birth: body.data.date_of_birth,
      });
      const dup = await api.request('POST', base, token, again);
      expect(dup.status).toBe(409);
      expect(dup.body.errors).toEqual([{ error: 'Conflict', message: 'This trainee is already in Register' }]);
      expect(dup.body.data).toHaveLength(1);
      expect(dup.body.data[0].trainee_id).toBe(first.body.data.trainee_id);
    });

    it('does not count another provider’s trainee as a duplicate', async () => {
      const body = uniqueTrainee(version);
      expect((await api.request('POST', base, token, body)).status).toBe(201);
      expect((await api.request('POST', base, otherToken, body)).status).toBe(201);
    });

    it('answers 422 listing every failed rule, and writes nothing', async () => {
      const before = await api.infra.eventStore.headPosition();
      const res = await api.request('POST', base, token, uniqueTrainee(version, { first_names: '', last_name: 'x'.repeat(61) }));
      expect(res.status).toBe(422);
      const messages = res.body.errors.map((e: { message: string }) => e.message);
      expect(res.body.errors.every((e: { error: string }) => e.error === 'UnprocessableEntity')).toBe(true);
      expect(messages).toEqual(expect.arrayContaining(["first_names can't be blank", 'last_name is too long (maximum is 60 characters)']));
      expect(await api.infra.eventStore.headPosition()).toBe(before);
    });

    it.each([
      ['no body', undefined],
      ['no data', { trainee: {} }],
      ['empty data', { data: {} }],
      ['data not an object', { data: [1, 2] }],
      ['a JSON array body', [1]],
    ])('answers 422 naming data for %s', async (_label, body) => {
      const res = await api.request('POST', base, token, body);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        errors: [{ error: 'UnprocessableEntity', message: 'Param is missing or the value is empty or invalid: data' }],
      });
    });

    it('answers 400 in the error shape for malformed JSON', async () => {
      const res = await api.request('POST', base, token, '{"data": {"first_names": ');
      expect(res.status).toBe(400);
      expect(res.body.errors).toHaveLength(1);
      expect(res.body.errors[0].error).toBe('BadRequest');
      expect(typeof res.body.errors[0].message).toBe('string');
    });

    it('reads a body sent without a JSON content type', async () => {
      const res = await api.request('POST', base, token, JSON.stringify(uniqueTrainee(version)), { 'content-type': 'text/plain' });
      expect(res.status).toBe(201);
    });

    it('answers 404 for an unknown trainee and for another provider’s trainee (never 403)', async () => {
      const created = await api.request('POST', base, token, uniqueTrainee(version));
      const id = created.body.data.trainee_id;
      for (const [path, tok] of [
        [`${base}/doesNotExist123456789012`, token],
        [`${base}/${id}`, otherToken],
      ] as const) {
        const res = await api.request('GET', path, tok);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ errors: [{ error: 'NotFound', message: 'Trainee(s) not found' }] });
      }
      const patch = await api.request('PATCH', `${base}/${id}`, otherToken, { data: { first_names: 'Mallory' } });
      expect(patch.status).toBe(404);
      const still = await api.request('GET', `${base}/${id}`, token);
      expect(still.body.data.first_names).toBe(created.body.data.first_names);
    });

    it('finds a trainee by id case-insensitively (docs/reference/API-FACTS.md §1.10)', async () => {
      const created = await api.request('POST', base, token, uniqueTrainee(version));
      const id: string = created.body.data.trainee_id;
      const res = await api.request('GET', `${base}/${id.toLowerCase()}`, token);
      expect(res.status).toBe(200);
      expect(res.body.data.trainee_id).toBe(id);
    });

    it.each(['PUT', 'PATCH'])('%s merges a single field and the GET right after sees it (read-your-writes)', async (method) => {
      const created = await api.request('POST', base, token, uniqueTrainee(version));
      const id = created.body.data.trainee_id;
      const res = await api.request(method, `${base}/${id}`, token, { data: { first_names: 'Jo-Anne' } });
      expect(res.status).toBe(200);
      expect(res.body.data.first_names).toBe('Jo-Anne');
      expect(res.body.data.last_name).toBe(created.body.data.last_name);
      expect(res.body.data.email).toBe(created.body.data.email);
      expect(res.body.data.updated_at >= created.body.data.updated_at).toBe(true);
      expect(res.body.data.placements).toEqual(created.body.data.placements);
      const read = await api.request('GET', `${base}/${id}`, token);
      expect(read.body.data).toEqual(res.body.data);
    });

    it('answers 422 for an update that breaks a rule and keeps the stored record', async () => {
      const created = await api.request('POST', base, token, uniqueTrainee(version));
      const id = created.body.data.trainee_id;
      const res = await api.request('PATCH', `${base}/${id}`, token, { data: { first_names: 'y'.repeat(61) } });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ error: 'UnprocessableEntity', message: 'first_names is too long (maximum is 60 characters)' }]);
      const read = await api.request('GET', `${base}/${id}`, token);
      expect(read.body.data.first_names).toBe(created.body.data.first_names);
    });

    it('answers 422 naming data for an update without data', async () => {
      const created = await api.request('POST', base, token, uniqueTrainee(version));
      const res = await api.request('PATCH', `${base}/${created.body.data.trainee_id}`, token, { data: {} });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].message).toBe('Param is missing or the value is empty or invalid: data');
    });

    it('ignores read-only fields on update (trn, state)', async () => {
      const created = await api.request('POST', base, token, uniqueTrainee(version));
      const res = await api.request('PATCH', `${base}/${created.body.data.trainee_id}`, token, {
        data: { trn: '1234567', state: 'awarded', middle_names: 'Kim' },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ trn: null, state: 'submitted_for_trn', middle_names: 'Kim' });
    });

    it('answers an update holding only read-only fields with the trainee unchanged (docs/reference/API-FACTS.md §7.3)', async () => {
      const created = await api.request('POST', base, token, uniqueTrainee(version));
      const id = created.body.data.trainee_id;
      const res = await api.request('PATCH', `${base}/${id}`, token, {
        data: { trn: '1234567', state: 'awarded', ethnic_group: 'white_ethnic_group' },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(created.body.data);
      expect(
        (await api.request('GET', `${base}/${id}/history`, token)).body.data.map((e: { event_type: string }) => e.event_type),
      ).not.toContain('TraineeUpdated');
      expect((await api.request('PUT', `${base}/${id}`, token, { data: {} })).status).toBe(422);
    });
  });

  it('keeps a fractional course_year in v2025.0 (presence only, API-FACTS.md §6.4) and answers it as the served document says', async () => {
    const body = uniqueTrainee('v2025.0');
    body.data.course_year = 2.5;
    // Each answer is checked against the served OpenAPI document by the harness.
    const created = await api.request('POST', '/api/v2025.0/trainees', token, body);
    expect(created.status).toBe(201);
    expect(created.body.data.course_year).toBe(2.5);
    const read = await api.request('GET', `/api/v2025.0/trainees/${created.body.data.trainee_id}`, token);
    expect(read.body.data.course_year).toBe(2.5);
  });

  it('claims the registration in a reservation named by a keyed hash, and writes no guard stream to the log (docs/DESIGN.md property 3)', async () => {
    const body = uniqueTrainee('v2026.1');
    const created = await api.request('POST', '/api/v2026.1/trainees', token, body);
    expect(created.status).toBe(201);
    const t = created.body.data;
    const key = duplicateGuardKey(t.ukprn, t);
    const keyed = keyedGuardNames(deriveKey(api.app.get<ServiceKeyring>(SERVICE_KEY), 'registration-guards'))(key);
    expect(keyed).not.toContain(createHash('sha256').update(key).digest('hex').slice(0, 40));
    const reservation = await api.app.get<TraineeWritePorts>(TRAINEE_WRITE_PORTS).reservations.readReservation(keyed);
    expect(reservation.claims.map((c) => c.trainee_id)).toEqual([t.trainee_id]);
    expect(reservation.version).toBe(1);
    const guards = await api.infra.eventStore.readAll({ maxCount: 100_000, filter: { streamPrefixes: ['registrationguard-'] } });
    expect(guards).toEqual([]);
  });

  it('gives exactly one 201 for 20 concurrent identical creates; the others are 409 with the winner (docs/DESIGN.md property 3)', async () => {
    const body = uniqueTrainee('v2025.0');
    const results = await Promise.all(Array.from({ length: 20 }, () => api.request('POST', '/api/v2025.0/trainees', token, body)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const winner = results.find((r) => r.status === 201)!.body.data.trainee_id;
    for (const r of results.filter((x) => x.status === 409))
      expect(r.body.data.map((t: { trainee_id: string }) => t.trainee_id)).toEqual([winner]);
    const list = await api.request('GET', `/api/v2025.0/trainees?academic_cycle=2025&per_page=500`, token);
    expect(list.body.data.filter((t: { email: string }) => t.email === body.data.email)).toHaveLength(1);
  });

  it('applies concurrent updates of one trainee without losing any (docs/DESIGN.md property 2)', async () => {
    const created = await api.request('POST', '/api/v2025.0/trainees', token, uniqueTrainee('v2025.0'));
    const id = created.body.data.trainee_id;
    const fields = ['middle_names', 'previous_last_name', 'ni_number', 'provider_trainee_id'];
    const value = (f: string, i: number) => (f === 'ni_number' ? `QQ12345${i}C` : `V${i}`);
    const results = await Promise.all(
      fields.map((f, i) => api.request('PATCH', `/api/v2025.0/trainees/${id}`, token, { data: { [f]: value(f, i) } })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const read = await api.request('GET', `/api/v2025.0/trainees/${id}`, token);
    fields.forEach((f, i) => expect(read.body.data[f]).toBe(value(f, i)));
  });
});
