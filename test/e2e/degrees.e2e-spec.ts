import { TRAINEE_DEGREES_MAX } from '@app/trainees/decider';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee, type Version } from '../support/trainee-input';

const DEGREE = { grade: '02', subject: '100425', institution: '0116', uk_degree: '083', graduation_year: '2003-06-01' };

describe.each<Version>(['v2025.0', 'v2026.1'])(
  'degrees over HTTP in %s (docs/spec/trainee-records-api.md "Degree object"; docs/reference/API-FACTS.md §11)',
  (version) => {
    let api: RunningApi;
    let token: string;
    let otherToken: string;
    const base = `/api/${version}/trainees`;

    beforeAll(async () => {
      api = await RunningApi.start();
      token = await api.providerToken('10000070');
      otherToken = await api.providerToken('10000071');
    });
    afterAll(() => api.close());

    async function newTrainee(): Promise<string> {
      // Route 11 (undergraduate) needs no degree, so the trainee can start with none.
      const res = await api.request('POST', base, token, uniqueTrainee(version, { degrees_attributes: [], placements_attributes: [] }));
      expect(res.status).toBe(201);
      return res.body.data.trainee_id;
    }

    it('creates a degree: 201 with an array holding it, codes and uuids as the reference data give them', async () => {
      const id = await newTrainee();
      expect((await api.request('GET', `${base}/${id}/degrees`, token)).body).toEqual({ data: [] });
      const res = await api.request('POST', `${base}/${id}/degrees`, token, { data: DEGREE });
      expect(res.status).toBe(201);
      expect(Array.isArray(res.body.data)).toBe(true);
      expect(res.body.data).toHaveLength(1);
      expect(res.body.data[0]).toMatchObject({
        uk_degree: '083',
        non_uk_degree: null,
        subject: '100425',
        institution: '0116',
        grade: '02',
        country: null,
        graduation_year: 2003,
        other_grade: null,
        institution_uuid: '1071f34a-2887-e711-80d8-005056ac45bb',
        uk_degree_uuid: '1b6a5652-c197-e711-80d8-005056ac45bb',
        subject_uuid: '918170f0-5dce-e911-a985-000d3ab79618',
        grade_uuid: 'e2fe18d4-8655-47cf-ab1a-8c3e0b0f078f',
      });
      const degreeId = res.body.data[0].degree_id;
      const one = await api.request('GET', `${base}/${id}/degrees/${degreeId}`, token);
      expect(one.body).toEqual({ data: res.body.data[0] });
    });

    it('answers 409 with the existing degree for a duplicate, and stores nothing', async () => {
      const id = await newTrainee();
      const first = await api.request('POST', `${base}/${id}/degrees`, token, { data: DEGREE });
      const dup = await api.request('POST', `${base}/${id}/degrees`, token, { data: { ...DEGREE, graduation_year: 2003 } });
      expect(dup.status).toBe(409);
      expect(dup.body).toEqual({ errors: [{ error: 'Conflict', message: 'This is a duplicate degree' }], data: first.body.data });
      expect((await api.request('GET', `${base}/${id}/degrees`, token)).body.data).toHaveLength(1);
    });

    it('answers 422 for invalid degrees and for missing data', async () => {
      const id = await newTrainee();
      const bad = await api.request('POST', `${base}/${id}/degrees`, token, { data: { uk_degree: '083', grade: '02' } });
      expect(bad.status).toBe(422);
      expect(bad.body.errors.map((e: { message: string }) => e.message)).toEqual(
        expect.arrayContaining([
          'subject must be entered if specifying a previous UK degree or non-UK degree',
          'graduation_year must be entered if specifying a previous UK degree or non-UK degree',
        ]),
      );
      for (const body of [{}, { data: {} }, { data: 'x' }]) {
        const res = await api.request('POST', `${base}/${id}/degrees`, token, body);
        expect(res.status).toBe(422);
        expect(res.body).toEqual({
          errors: [{ error: 'UnprocessableEntity', message: 'Param is missing or the value is empty or invalid: data' }],
        });
      }
    });

    it('updates partially with PUT and PATCH, refuses an update that duplicates another degree, deletes answering the trainee', async () => {
      const id = await newTrainee();
      const a = (await api.request('POST', `${base}/${id}/degrees`, token, { data: DEGREE })).body.data[0];
      const b = (await api.request('POST', `${base}/${id}/degrees`, token, { data: { ...DEGREE, graduation_year: '2005' } })).body.data[0];
      const patched = await api.request('PATCH', `${base}/${id}/degrees/${b.degree_id}`, token, { data: { grade: '03' } });
      expect(patched.status).toBe(200);
      expect(patched.body.data).toMatchObject({ degree_id: b.degree_id, grade: '03', graduation_year: 2005, subject: '100425' });
      const put = await api.request('PUT', `${base}/${id}/degrees/${b.degree_id}`, token, { data: { graduation_year: '2006' } });
      expect(put.body.data).toMatchObject({ graduation_year: 2006, grade: '03' });
      const dup = await api.request('PATCH', `${base}/${id}/degrees/${b.degree_id}`, token, {
        data: { graduation_year: '2003', grade: '02' },
      });
      expect(dup.status).toBe(409);
      expect(dup.body.data).toEqual([a]);
      const deleted = await api.request('DELETE', `${base}/${id}/degrees/${a.degree_id}`, token);
      expect(deleted.status).toBe(200);
      expect(deleted.body.data.degrees.map((d: { degree_id: string }) => d.degree_id)).toEqual([b.degree_id]);
      const gone = await api.request('GET', `${base}/${id}/degrees/${a.degree_id}`, token);
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual({ errors: [{ error: 'NotFound', message: 'Degree(s) not found' }] });
    });

    it('answers 404 for another trainee’s degree and for another provider’s trainee', async () => {
      const first = await newTrainee();
      const second = await newTrainee();
      const d = (await api.request('POST', `${base}/${first}/degrees`, token, { data: DEGREE })).body.data[0];
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const res = await api.request(
          method,
          `${base}/${second}/degrees/${d.degree_id}`,
          token,
          method === 'PATCH' ? { data: { grade: '03' } } : undefined,
        );
        expect(res.status).toBe(404);
        expect(res.body.errors[0].message).toBe('Degree(s) not found');
      }
      const res = await api.request('GET', `${base}/${first}/degrees`, otherToken);
      expect(res.status).toBe(404);
      expect(res.body.errors[0].message).toBe('Trainee(s) not found');
    });

    it(`applies 15 parallel creates of distinct degrees on one trainee: the first ${TRAINEE_DEGREES_MAX} 201 and stored, the rest 422 (the maximum, docs/DESIGN.md ruling 14)`, async () => {
      const id = await newTrainee();
      const results = await Promise.all(
        Array.from({ length: 15 }, (_, i) =>
          api.request('POST', `${base}/${id}/degrees`, token, { data: { ...DEGREE, graduation_year: String(1990 + i) } }),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([...Array(TRAINEE_DEGREES_MAX).fill(201), ...Array(15 - TRAINEE_DEGREES_MAX).fill(422)]);
      const created = results.filter((r) => r.status === 201).map((r) => r.body.data[0].graduation_year as number);
      const list = await api.request('GET', `${base}/${id}/degrees`, token);
      expect(list.body.data.map((d: { graduation_year: number }) => d.graduation_year).sort()).toEqual(created.sort());
    });

    it('gives exactly one 201 for 10 parallel creates of the same degree; the others are 409', async () => {
      const id = await newTrainee();
      const results = await Promise.all(
        Array.from({ length: 10 }, () => api.request('POST', `${base}/${id}/degrees`, token, { data: DEGREE })),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([201, ...Array(9).fill(409)]);
      expect((await api.request('GET', `${base}/${id}/degrees`, token)).body.data).toHaveLength(1);
    });
  },
);
