import { RunningApi, TEST_SCHOOLS } from '../support/api-harness';
import { uniqueTrainee, type Version } from '../support/trainee-input';

describe.each<Version>(['v2025.0', 'v2026.1'])(
  'placements over HTTP in %s (docs/spec/trainee-records-api.md "Placement object"; docs/reference/API-FACTS.md §10)',
  (version) => {
    let api: RunningApi;
    let token: string;
    let otherToken: string;
    const base = `/api/${version}/trainees`;

    beforeAll(async () => {
      api = await RunningApi.start();
      token = await api.providerToken('10000060');
      otherToken = await api.providerToken('10000061');
      await api.infra.schools.upsertMany(TEST_SCHOOLS);
    });
    afterAll(() => api.close());

    async function newTrainee(tok = token): Promise<{ id: string; updated_at: string }> {
      const res = await api.request('POST', base, tok, uniqueTrainee(version, { placements_attributes: [] }));
      expect(res.status).toBe(201);
      return { id: res.body.data.trainee_id, updated_at: res.body.data.updated_at };
    }

    it('lists none as 200 [] and answers 404 for an unknown or another provider’s trainee', async () => {
      const { id } = await newTrainee();
      expect(await api.request('GET', `${base}/${id}/placements`, token)).toMatchObject({ status: 200, body: { data: [] } });
      for (const [path, tok] of [
        [`${base}/nope/placements`, token],
        [`${base}/${id}/placements`, otherToken],
      ] as const) {
        const res = await api.request('GET', path, tok);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ errors: [{ error: 'NotFound', message: 'Trainee(s) not found' }] });
      }
    });

    it('links a URN of the schools directory: name, postcode and address from the school', async () => {
      const { id } = await newTrainee();
      const res = await api.request('POST', `${base}/${id}/placements`, token, { data: { urn: '100001' } });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        urn: '100001',
        name: 'Oak Primary School',
        postcode: 'GU1 6FR',
        address: 'URN 100001, Guildford, GU1 6FR',
      });
      expect(res.body.data.placement_id).toMatch(/^[1-9A-HJ-NP-Za-km-z]{24}$/);
      if (version === 'v2025.0') expect(res.body.data.school_id).toBe(100001);
      else expect(res.body.data).not.toHaveProperty('school_id');
      const read = await api.request('GET', `${base}/${id}/placements/${res.body.data.placement_id}`, token);
      expect(read.body.data).not.toHaveProperty('school_id');
      const { school_id: _s, ...withoutSchoolId } = res.body.data;
      expect(read.body.data).toEqual(withoutSchoolId);
    });

    it('keeps the name and postcode of an unknown URN, the address built from them (docs/DESIGN.md ruling 13)', async () => {
      const { id } = await newTrainee();
      const res = await api.request('POST', `${base}/${id}/placements`, token, {
        data: { urn: '654321', name: 'Fir School', postcode: 'BN1 1AA' },
      });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ urn: '654321', name: 'Fir School', postcode: 'BN1 1AA', address: 'URN 654321, BN1 1AA' });
    });

    it.each([
      [{ urn: '654321', name: '' }, ["name can't be blank"]],
      [{ urn: '12', name: 'X' }, ['urn is invalid']],
      [{ name: 'X', postcode: 'nowhere' }, ['postcode Enter a valid postcode (for example, BN1 1AA)']],
    ])('answers 422 for %j', async (data, messages) => {
      const { id } = await newTrainee();
      const res = await api.request('POST', `${base}/${id}/placements`, token, { data });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ errors: messages.map((message) => ({ error: 'UnprocessableEntity', message })) });
      expect((await api.request('GET', `${base}/${id}/placements`, token)).body.data).toEqual([]);
    });

    it('answers 422 naming data when data is missing', async () => {
      const { id } = await newTrainee();
      const res = await api.request('POST', `${base}/${id}/placements`, token, {});
      expect(res.status).toBe(422);
      expect(res.body.errors[0].message).toBe('Param is missing or the value is empty or invalid: data');
    });

    it('updates with PUT and PATCH, lists in creation order, deletes answering the parent trainee', async () => {
      const { id, updated_at } = await newTrainee();
      const a = (await api.request('POST', `${base}/${id}/placements`, token, { data: { urn: '654321', name: 'Fir School' } })).body.data;
      const b = (await api.request('POST', `${base}/${id}/placements`, token, { data: { name: 'Pine School' } })).body.data;
      const patched = await api.request('PATCH', `${base}/${id}/placements/${a.placement_id}`, token, { data: { name: 'Fir Academy' } });
      expect(patched.status).toBe(200);
      expect(patched.body.data).toMatchObject({ placement_id: a.placement_id, urn: '654321', name: 'Fir Academy' });
      const put = await api.request('PUT', `${base}/${id}/placements/${b.placement_id}`, token, { data: { urn: '100038' } });
      expect(put.body.data).toMatchObject({ urn: '100038', name: 'Ash Academy', address: 'URN 100038, Leeds, LS1 1DX' });
      const list = await api.request('GET', `${base}/${id}/placements`, token);
      expect(list.body.data.map((p: { placement_id: string }) => p.placement_id)).toEqual([a.placement_id, b.placement_id]);

      const trainee = await api.request('GET', `${base}/${id}`, token);
      expect(trainee.body.data.updated_at > updated_at).toBe(true);
      expect(trainee.body.data.placements).toEqual(list.body.data);

      const deleted = await api.request('DELETE', `${base}/${id}/placements/${a.placement_id}`, token);
      expect(deleted.status).toBe(200);
      expect(deleted.body.data.trainee_id).toBe(id);
      expect(deleted.body.data.placements.map((p: { placement_id: string }) => p.placement_id)).toEqual([b.placement_id]);
      const gone = await api.request('GET', `${base}/${id}/placements/${a.placement_id}`, token);
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual({ errors: [{ error: 'NotFound', message: 'Placement(s) not found' }] });
    });

    it('answers 404 Placement(s) not found for an unknown placement and for another trainee’s, on every method', async () => {
      const first = await newTrainee();
      const second = await newTrainee();
      const p = (await api.request('POST', `${base}/${first.id}/placements`, token, { data: { name: 'Fir School' } })).body.data;
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { data: { name: 'X' } }],
        ['PUT', { data: { name: 'X' } }],
        ['DELETE', undefined],
      ] as const) {
        for (const path of [
          `${base}/${second.id}/placements/${p.placement_id}`,
          `${base}/${first.id}/placements/unknownPlacementId12345`,
        ]) {
          const res = await api.request(method, path, token, body);
          expect(res.status).toBe(404);
          expect(res.body).toEqual({ errors: [{ error: 'NotFound', message: 'Placement(s) not found' }] });
        }
      }
      const other = await api.request('PATCH', `${base}/${first.id}/placements/${p.placement_id}`, otherToken, { data: { name: 'X' } });
      expect(other.status).toBe(404);
      expect(other.body.errors[0].message).toBe('Trainee(s) not found');
    });

    it('a placement write moves the trainee in the list filtered by since', async () => {
      const { id } = await newTrainee();
      const before = new Date().toISOString();
      await new Promise((r) => setTimeout(r, 5));
      await api.request('POST', `${base}/${id}/placements`, token, { data: { name: 'Fir School' } });
      const trainee = await api.request('GET', `${base}/${id}`, token);
      const cycle = trainee.body.data.itt_start_date.slice(0, 4);
      const list = await api.request('GET', `${base}?academic_cycle=${cycle}&since=${encodeURIComponent(before)}`, token);
      expect(list.body.data.map((t: { trainee_id: string }) => t.trainee_id)).toContain(id);
    });
  },
);
