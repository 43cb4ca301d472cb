import { RunningApi } from '../support/api-harness';
import { uniqueTrainee, type Version } from '../support/trainee-input';

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** Start year of the academic cycle (1 August – 31 July) holding `date`. */
function cycleOf(date: string): number {
  const [y, m] = date.split('-').map(Number);
  return m >= 8 ? y : y - 1;
}

describe.each<Version>(['v2025.0', 'v2026.1'])(
  'GET /api/%s/trainees (docs/spec/trainee-records-api.md "GET /trainees"; docs/reference/API-FACTS.md §14)',
  (version) => {
    let api: RunningApi;
    let token: string;
    let otherToken: string;
    const base = `/api/${version}/trainees`;
    const today = isoDate(new Date());
    const current = cycleOf(today);
    const startedThisCycle = `${current}-08-01`;
    const future = isoDate(new Date(Date.now() + 20 * 86_400_000));
    const ids: string[] = [];
    let futureId = '';

    beforeAll(async () => {
      api = await RunningApi.start();
      token = await api.providerToken('10000020');
      otherToken = await api.providerToken('10000021');
      for (let i = 0; i < 3; i++) {
        const res = await api.request(
          'POST',
          base,
          token,
          uniqueTrainee(version, {
            itt_start_date: startedThisCycle,
            trainee_start_date: startedThisCycle,
            itt_end_date: `${current + 2}-07-31`,
          }),
        );
        expect(res.status).toBe(201);
        ids.push(res.body.data.trainee_id);
      }
      const f = await api.request(
        'POST',
        base,
        token,
        uniqueTrainee(version, { itt_start_date: future, trainee_start_date: future, itt_end_date: `${current + 3}-07-31` }),
      );
      expect(f.status).toBe(201);
      futureId = f.body.data.trainee_id;
      const other = await api.request(
        'POST',
        base,
        otherToken,
        uniqueTrainee(version, {
          itt_start_date: startedThisCycle,
          trainee_start_date: startedThisCycle,
          itt_end_date: `${current + 2}-07-31`,
        }),
      );
      expect(other.status).toBe(201);
    });
    afterAll(() => api.close());

    const idsOf = (body: { data: { trainee_id: string }[] }) => body.data.map((t) => t.trainee_id);

    it('lists the current cycle by default, newest change first, with paging meta, and only the caller’s trainees', async () => {
      const res = await api.request('GET', base, token);
      expect(res.status).toBe(200);
      const expected = cycleOf(future) === current ? [futureId, ...[...ids].reverse()] : [...ids].reverse();
      expect(idsOf(res.body)).toEqual(expected);
      expect(res.body.meta).toEqual({ current_page: 1, total_pages: 1, total_count: expected.length, per_page: 50 });
      expect(res.body.data[0].placements).toBeUndefined();
      expect(res.body.data[0].degrees).toBeUndefined();
    });

    it('orders ascending with sort_order=asc', async () => {
      const res = await api.request('GET', `${base}?sort_order=asc&academic_cycle=${current}`, token);
      expect(idsOf(res.body).slice(0, 3)).toEqual(ids);
    });

    it('pages with page and per_page, and answers 404 past the last page', async () => {
      const p1 = await api.request('GET', `${base}?academic_cycle=${current}&per_page=2&sort_order=asc`, token);
      const p2 = await api.request('GET', `${base}?academic_cycle=${current}&per_page=2&page=2&sort_order=asc`, token);
      expect(idsOf(p1.body)).toEqual(ids.slice(0, 2));
      expect(idsOf(p2.body)[0]).toBe(ids[2]);
      expect(p1.body.meta.total_pages).toBe(Math.ceil(p1.body.meta.total_count / 2));
      expect(p2.body.meta.current_page).toBe(2);
      const past = await api.request('GET', `${base}?academic_cycle=${current}&per_page=2&page=99`, token);
      expect(past.status).toBe(404);
      expect(past.body).toEqual({ errors: [{ error: 'NotFound', message: 'No trainees found' }] });
    });

    it('answers 404 No trainees found for a cycle without trainees', async () => {
      const res = await api.request('GET', `${base}?academic_cycle=2012`, token);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ errors: [{ error: 'NotFound', message: 'No trainees found' }] });
    });

    it('reads academic_cycle as its leading integer (2025/26)', async () => {
      const a = await api.request('GET', `${base}?academic_cycle=${current}/${(current + 1) % 100}`, token);
      const b = await api.request('GET', `${base}?academic_cycle=${current}`, token);
      expect(a.status).toBe(200);
      expect(idsOf(a.body)).toEqual(idsOf(b.body));
    });

    it('filters by since (updated_at on or after the instant)', async () => {
      const latest = await api.request('GET', `${base}/${ids[2]}`, token);
      const res = await api.request(
        'GET',
        `${base}?academic_cycle=${current}&since=${encodeURIComponent(latest.body.data.updated_at)}`,
        token,
      );
      expect(res.status).toBe(200);
      expect(idsOf(res.body)).toContain(ids[2]);
      expect(idsOf(res.body)).not.toContain(ids[0]);
      const future = await api.request('GET', `${base}?academic_cycle=${current}&since=2999-01-01`, token);
      expect(future.status).toBe(404);
    });

    it('filters by has_trn: none has a TRN yet', async () => {
      const withTrn = await api.request('GET', `${base}?academic_cycle=${current}&has_trn=true`, token);
      expect(withTrn.status).toBe(404);
      const without = await api.request('GET', `${base}?academic_cycle=${current}&has_trn=false`, token);
      expect(idsOf(without.body)).toEqual(expect.arrayContaining(ids));
    });

    it('filters by status: in_training, course_not_yet_started, and the states no trainee is in', async () => {
      const inTraining = await api.request('GET', `${base}?academic_cycle=${current}&status=in_training`, token);
      expect(idsOf(inTraining.body)).toEqual(expect.arrayContaining(ids));
      expect(idsOf(inTraining.body)).not.toContain(futureId);
      const notStarted = await api.request('GET', `${base}?academic_cycle=${cycleOf(future)}&status=course_not_yet_started`, token);
      expect(idsOf(notStarted.body)).toEqual([futureId]);
      for (const status of ['deferred', 'withdrawn', 'awarded']) {
        expect((await api.request('GET', `${base}?academic_cycle=${current}&status=${status}`, token)).status).toBe(404);
      }
    });

    it('answers 422 in the list shape for each invalid parameter', async () => {
      const res = await api.request('GET', `${base}?status=sleeping`, token);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        message: 'Validation failed: 1 error prohibited this request being run',
        errors: { status: ['sleeping is not a valid status'] },
      });
      const many = await api.request('GET', `${base}?academic_cycle=abc&since=yesterday&sort_order=up&status=x`, token);
      expect(many.status).toBe(422);
      expect(many.body).toEqual({
        message: 'Validation failed: 4 errors prohibited this request being run',
        errors: {
          academic_cycle: ['abc is not a valid academic cycle year'],
          status: ['x is not a valid status'],
          since: ['yesterday is not a valid date'],
          sort_order: ['is not included in the list'],
        },
      });
      const outOfRange = await api.request('GET', `${base}?academic_cycle=1999`, token);
      expect(outOfRange.body.errors).toEqual({ academic_cycle: ['1999 is not a valid academic cycle year'] });
    });
  },
);
