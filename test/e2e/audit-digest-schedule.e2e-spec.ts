/**
 * Scheduled digests (`AUDIT_DIGEST_EVERY`; docs/DESIGN.md "Scheduled digests"): the API that runs
 * the projector signs a digest on a thread of its own, records it in the log and keeps its tree,
 * so GET /audit/digest answers it; a run while the log has not moved signs nothing; the next run
 * after more writes covers them, and the log still verifies.
 */
import { runAdmin } from '../support/admin-cli';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';
import { Projections } from '../../apps/api/src/composition/projections';

describe('scheduled audit digests', () => {
  let api: RunningApi;
  let token: string;
  const base = '/api/v2026.1';

  beforeAll(async () => {
    api = await RunningApi.start({ auditDigest: { everyMs: 3_600_000, signingKeyFile: null } });
    token = await api.providerToken('10000140');
  });
  afterAll(() => api.close());

  const latest = async () => {
    const res = await api.request('GET', `${base}/audit/digest`, token);
    return res.status === 200 ? (res.body as { data: { position: number; streams: number; root: string } }).data : null;
  };

  it('signs when the log moved, and nothing while it has not', async () => {
    const digests = api.app.get(Projections).digests!;
    expect(digests).not.toBeNull();
    const created = await api.request('POST', `${base}/trainees`, token, uniqueTrainee('v2026.1'));
    expect(created.status).toBe(201);
    expect(await latest()).toBeNull();

    await digests.schedule.runNow();
    expect(digests.schedule.counts).toEqual({ signed: 1, idle: 0, failed: 0 });
    const first = await latest();
    expect(first).not.toBeNull();

    await digests.schedule.runNow();
    expect(digests.schedule.counts).toEqual({ signed: 1, idle: 1, failed: 0 });
    expect(await latest()).toEqual(first);

    const id = (created.body as { data: { trainee_id: string } }).data.trainee_id;
    expect((await api.request('PATCH', `${base}/trainees/${id}`, token, { data: { first_names: 'Edith' } })).status).toBe(200);
    await digests.schedule.runNow();
    expect(digests.schedule.counts).toEqual({ signed: 2, idle: 1, failed: 0 });
    const second = (await latest())!;
    expect(second.position).toBeGreaterThan(first!.position);
    expect(second.root).not.toBe(first!.root);
    const proof = await api.request('GET', `${base}/audit/digest?trainee_id=${id}`, token);
    expect((proof.body as { data: { inclusion: { revision: number } | null } }).data.inclusion).not.toBeNull();

    const verified = await runAdmin(['audit', 'verify'], api.dataDir);
    expect(verified.code).toBe(0);
  });
});
