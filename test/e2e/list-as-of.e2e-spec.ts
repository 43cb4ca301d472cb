/**
 * GET /api/{v}/trainees?as_of= (docs/DESIGN.md "A provider's trainees at an instant") and
 * `admin report as-of` (docs/operations.md "The list at an instant and the census report"): the
 * list as it stood at an instant equals what the list answered then, whatever was written since;
 * filters and paging apply to the state then; a bad as_of is the list's 422; another provider's and
 * erased trainees never appear.
 */
import { AdminWorker } from '../support/admin-cli';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';

const UKPRN = '10000140';
const OTHER_UKPRN = '10000141';

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** Start year of the academic cycle (1 August – 31 July) holding `date`. */
function cycleOf(date: string): number {
  const [y, m] = date.split('-').map(Number);
  return m >= 8 ? y : y - 1;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The list queries compared: the default, paging, each filter, the order. */
const QUERIES = [
  '',
  '?per_page=2',
  '?per_page=2&page=2',
  '?sort_order=asc&per_page=3',
  '?status=in_training',
  '?status=course_not_yet_started',
  '?status[]=in_training&status[]=withdrawn',
  '?has_trn=false',
];

/** The admin CLI loaded once in a process of its own, for the census runs; the census after an erasure starts the program. */
const admin = AdminWorker.forFile();

describe('the trainee list as of an instant', () => {
  let api: RunningApi;
  let token: string;
  let otherToken: string;
  const base = '/api/v2026.1/trainees';
  const today = isoDate(new Date());
  const current = cycleOf(today);
  const started = `${current}-08-01`;
  const future = isoDate(new Date(Date.now() + 20 * 86_400_000));
  const ids: string[] = [];
  let otherId = '';
  /** The instant of the capture, and what the list answered then, by version and query. */
  let captureAt = '';
  const captured = new Map<string, { status: number; body: unknown }>();

  const create = async (tok: string, overrides: Record<string, unknown> = {}) => {
    const res = await api.request(
      'POST',
      base,
      tok,
      uniqueTrainee('v2026.1', {
        itt_start_date: started,
        trainee_start_date: started,
        itt_end_date: `${current + 2}-07-31`,
        ...overrides,
      }),
    );
    expect(res.status).toBe(201);
    return res.body.data.trainee_id as string;
  };
  const idsOf = (body: { data: { trainee_id: string }[] }) => body.data.map((t) => t.trainee_id);

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken(UKPRN);
    otherToken = await api.providerToken(OTHER_UKPRN);
    for (let i = 0; i < 4; i++) ids.push(await create(token));
    ids.push(await create(token, { itt_start_date: future, trainee_start_date: future, itt_end_date: `${current + 3}-07-31` }));
    otherId = await create(otherToken);
    // The capture: every query in both versions, then the instant after the last answer.
    for (const version of ['v2025.0', 'v2026.1'])
      for (const q of QUERIES) {
        const res = await api.request('GET', `/api/${version}/trainees${q}`, token);
        captured.set(`${version}${q}`, { status: res.status, body: res.body });
      }
    captureAt = new Date().toISOString();
    await sleep(5);
    // Writes after the capture: a new trainee, a PATCH (moves it to the top), a withdrawal, a deferral.
    ids.push(await create(token));
    expect((await api.request('PATCH', `${base}/${ids[0]}`, token, { data: { middle_names: 'Later' } })).status).toBe(200);
    const withdrawn = await api.request('POST', `${base}/${ids[1]}/withdraw`, token, {
      data: { withdrawal_date: today, trigger: 'provider', future_interest: 'no', reasons: ['mandatory_reasons'] },
    });
    expect(withdrawn.status).toBe(200);
    expect((await api.request('POST', `${base}/${ids[2]}/defer`, token, { data: { defer_date: today } })).status).toBe(200);
  });
  afterAll(() => api.close());

  it('answers exactly what the list answered at the instant, for every query, in both versions', async () => {
    // The writes since changed the list of now.
    const now = await api.request('GET', base, token);
    expect(idsOf(now.body)).not.toEqual(idsOf(captured.get('v2026.1')!.body as { data: { trainee_id: string }[] }));
    expect(idsOf(captured.get('v2026.1')!.body as { data: { trainee_id: string }[] })).toHaveLength(cycleOf(future) === current ? 5 : 4);
    for (const version of ['v2025.0', 'v2026.1'])
      for (const q of QUERIES) {
        const asOf = `${q === '' ? '?' : `${q}&`}as_of=${encodeURIComponent(captureAt)}`;
        const res = await api.request('GET', `/api/${version}/trainees${asOf}`, token);
        expect({ query: `${version}${q}`, status: res.status, body: res.body }).toEqual({
          query: `${version}${q}`,
          ...captured.get(`${version}${q}`),
        });
      }
  });

  it('applies the filters to the state at the instant', async () => {
    const at = encodeURIComponent(captureAt);
    const withdrawnThen = await api.request('GET', `${base}?status=withdrawn&as_of=${at}`, token);
    expect(withdrawnThen.status).toBe(404);
    const withdrawnNow = await api.request('GET', `${base}?status=withdrawn`, token);
    expect(idsOf(withdrawnNow.body)).toEqual([ids[1]]);
    const inTrainingThen = await api.request('GET', `${base}?status=in_training&as_of=${at}`, token);
    expect(idsOf(inTrainingThen.body)).toEqual(expect.arrayContaining([ids[0], ids[1], ids[2], ids[3]]));
    expect(idsOf(inTrainingThen.body)).not.toContain(ids[5]);
  });

  it('lists nothing before the first registration (the list’s 404)', async () => {
    const res = await api.request('GET', `${base}?as_of=2020-01-01T00:00:00Z&academic_cycle=${current}`, token);
    expect(res.status).toBe(404);
  });

  it.each([
    ['2026-13-01T00:00:00Z', 'is not a valid ISO 8601 instant'],
    ['2026-01-05', 'is not a valid ISO 8601 instant'],
    ['2026-01-05T10:00:00', 'is not a valid ISO 8601 instant'],
    [`2026-01-05T10:00:00.${'1'.repeat(80)}Z`, 'is not a valid ISO 8601 instant'],
    ['2999-01-01T00:00:00Z', 'must not be in the future'],
  ])('answers as_of=%s with the list’s 422 keyed as_of', async (value, message) => {
    const res = await api.request('GET', `${base}?as_of=${encodeURIComponent(value)}&per_page=1000`, token);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Validation failed: 2 errors prohibited this request being run');
    expect(res.body.errors.per_page).toEqual(['must be less than or equal to 500']);
    expect(res.body.errors.as_of).toHaveLength(1);
    expect(res.body.errors.as_of[0]).toContain(message);
  });

  it('never shows another provider’s trainees', async () => {
    const at = encodeURIComponent(new Date().toISOString());
    const mine = await api.request('GET', `${base}?as_of=${at}&per_page=500`, token);
    expect(idsOf(mine.body)).not.toContain(otherId);
    const theirs = await api.request('GET', `${base}?as_of=${at}`, otherToken);
    expect(idsOf(theirs.body)).toEqual([otherId]);
  });

  describe('admin report as-of (the census return)', () => {
    const census = (format: string, instant = captureAt, ukprn = UKPRN) =>
      admin.run(['report', 'as-of', instant, '--ukprn', ukprn, '--format', format], api.dataDir);

    it('writes a CSV record per trainee of the provider that existed then, as it stood then', async () => {
      const out = await census('csv');
      expect(out.stderr).toBe('');
      expect(out.code).toBe(0);
      const [header, ...rows] = out.stdout.trimEnd().split('\r\n');
      const columns = header.split(',');
      expect(columns.slice(0, 7)).toEqual(['trainee_id', 'trn', 'provider_trainee_id', 'ukprn', 'status', 'state', 'academic_cycle']);
      const records = rows.map((r) => Object.fromEntries(r.split(',').map((v, i) => [columns[i], v])));
      expect(records.map((r) => r.trainee_id)).toEqual(ids.slice(0, 5).sort());
      expect(new Set(records.map((r) => r.ukprn))).toEqual(new Set([UKPRN]));
      const byId = new Map(records.map((r) => [r.trainee_id, r]));
      expect(byId.get(ids[1])).toMatchObject({ status: 'in_training', state: 'submitted_for_trn', withdrawal_date: '' });
      expect(byId.get(ids[4])).toMatchObject({ status: 'course_not_yet_started', itt_start_date: future });
      // Of the personal values only the TRN (none yet) and the provider's own id (docs/DESIGN.md ruling 19): not the names.
      const person = (await api.request('GET', `${base}/${ids[0]}`, token)).body.data;
      expect(byId.get(ids[0])).toMatchObject({ trn: '', provider_trainee_id: person.provider_trainee_id });
      expect(person.provider_trainee_id).toMatch(/./);
      for (const value of [person.last_name, person.first_names, person.email, person.date_of_birth])
        expect(out.stdout).not.toContain(value);
    });

    it('writes the same rows as a JSON array, now with the writes since', async () => {
      const out = await census('json', new Date().toISOString());
      expect(out.code).toBe(0);
      const rows = JSON.parse(out.stdout) as Record<string, unknown>[];
      expect(rows.map((r) => r.trainee_id)).toEqual([...ids].sort());
      const byId = new Map(rows.map((r) => [r.trainee_id, r]));
      expect(byId.get(ids[1])).toMatchObject({ status: 'withdrawn', state: 'withdrawn', withdrawal_date: today });
      expect(byId.get(ids[2])).toMatchObject({ status: 'deferred', defer_date: today });
    });

    it('refuses a bad instant or UKPRN (usage: exit 2), a future instant and an unknown provider (exit 1)', async () => {
      expect((await census('csv', '2026-01-05')).code).toBe(2);
      expect((await census('csv', captureAt, '1234')).code).toBe(2);
      expect((await census('xml')).code).toBe(2);
      expect((await census('csv', '2999-01-01T00:00:00Z')).code).toBe(1);
      const unknown = await census('csv', captureAt, '10009999');
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('No provider with UKPRN 10009999');
    });
  });

  it('never shows an erased trainee, in the list at an instant or the census', async () => {
    const erasedId = ids[3];
    const erased = await admin.run(
      ['trainee', 'erase', erasedId, '--reason', 'Request DPO-2026-40', '--by', 'data.protection'],
      api.dataDir,
    );
    expect(erased.code).toBe(0);
    await api.infra.catchUp();
    const before = captured.get('v2026.1')!.body as { data: { trainee_id: string }[]; meta: { total_count: number } };
    const res = await api.request('GET', `${base}?as_of=${encodeURIComponent(captureAt)}`, token);
    expect(idsOf(res.body)).toEqual(idsOf(before).filter((id) => id !== erasedId));
    expect(res.body.meta.total_count).toBe(before.meta.total_count - 1);
    const out = await admin.run(['report', 'as-of', captureAt, '--ukprn', UKPRN, '--format', 'json'], api.dataDir);
    expect((JSON.parse(out.stdout) as { trainee_id: string }[]).map((r) => r.trainee_id)).not.toContain(erasedId);
  });
});
