// Slow by design: the sandbox registry's delays (4 s to the TRN, 2 s to the award; both versions at once) are what it checks.
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee, type Version } from '../support/trainee-input';

const TWO_PLACEMENTS = [
  { urn: '654321', name: 'Fir School' },
  { urn: '654322', name: 'Pine School' },
];
const today = () => new Date().toISOString().slice(0, 10);

/** Reads until `ok` holds or `withinMs` has passed; resolves the last value read and when it was read (ms since the epoch). */
async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, withinMs = 10_000): Promise<{ value: T; at: number }> {
  const deadline = Date.now() + withinMs;
  let value = await read();
  while (!ok(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 25));
    value = await read();
  }
  return { value, at: Date.now() };
}

/**
 * The sandbox registry as a provider sees it over HTTP (docs/reference/API-FACTS.md §12.1, §12.5):
 * a created trainee is `submitted_for_trn` with no TRN until the registry's delay has passed, the
 * API answering meanwhile; likewise `recommended_for_award` until the award. Short delays here; the
 * service's default is a minute each.
 */
describe('the sandbox registry with a delay, over HTTP', () => {
  // Long enough for the three requests after the create to be answered first on a loaded machine.
  const TRN_DELAY_MS = 4000;
  const AWARD_DELAY_MS = 2000;
  let api: RunningApi;
  let token: string;

  beforeAll(async () => {
    api = await RunningApi.start({ registryTrnDelayMs: TRN_DELAY_MS, registryAwardDelayMs: AWARD_DELAY_MS });
    token = await api.providerToken('10000082');
  });
  afterAll(() => api.close());

  /** One trainee's journey through the registry in `version`. */
  async function journey(version: Version): Promise<void> {
    const base = `/api/${version}/trainees`;
    const beforeCreate = Date.now();
    const created = await api.request('POST', base, token, uniqueTrainee(version, { placements_attributes: TWO_PLACEMENTS }));
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ state: 'submitted_for_trn', trn: null });
    const id = created.body.data.trainee_id;

    const read = await api.request('GET', `${base}/${id}`, token);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ trainee_id: id, state: 'submitted_for_trn', trn: null });
    // The API keeps answering, writes included, while the registry has the trainee.
    const patched = await api.request('PATCH', `${base}/${id}`, token, { data: { middle_names: 'Waiting' } });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ middle_names: 'Waiting', state: 'submitted_for_trn', trn: null });
    const listed = await api.request('GET', `${base}?academic_cycle=2025&has_trn=false`, token);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((t: { trainee_id: string }) => t.trainee_id)).toContain(id);

    const withTrn = await eventually(
      () => api.request('GET', `${base}/${id}`, token),
      (r) => r.body.data.trn !== null,
    );
    expect(withTrn.value.body.data).toMatchObject({
      state: 'trn_received',
      trn: expect.stringMatching(/^\d{7}$/),
      middle_names: 'Waiting',
    });
    // Not early: the TRN is due the delay after the submission, which came after `beforeCreate`.
    expect(withTrn.at - beforeCreate).toBeGreaterThanOrEqual(TRN_DELAY_MS);

    const beforeRecommend = Date.now();
    const recommended = await api.request('POST', `${base}/${id}/recommend-for-qts`, token, { data: { qts_standards_met_date: today() } });
    expect(recommended.status).toBe(202);
    expect(recommended.body.data).toMatchObject({ state: 'recommended_for_award' });
    const pending = await api.request('GET', `${base}/${id}`, token);
    expect(pending.body.data).toMatchObject({ state: 'recommended_for_award' });

    const awarded = await eventually(
      () => api.request('GET', `${base}/${id}`, token),
      (r) => r.body.data.state === 'awarded',
    );
    expect(awarded.value.body.data).toMatchObject({
      state: 'awarded',
      awarded_at: `${today()}T00:00:00.000Z`,
      trn: withTrn.value.body.data.trn,
    });
    expect(awarded.at - beforeRecommend).toBeGreaterThanOrEqual(AWARD_DELAY_MS);
  }

  // Both versions' journeys run at once, started here; each test awaits its own.
  const journeys = new Map<Version, Promise<void>>();
  beforeAll(() => {
    for (const version of ['v2025.0', 'v2026.1'] as const) {
      const done = journey(version);
      done.catch(() => undefined);
      journeys.set(version, done);
    }
  });

  it.each<Version>(['v2025.0', 'v2026.1'])(
    'reads submitted_for_trn with trn null right after the create, trn_received with a TRN after the delay, and awarded a delay after the recommendation, in %s',
    (version) => journeys.get(version)!,
    30_000,
  );
});
