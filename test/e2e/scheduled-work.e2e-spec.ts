/**
 * The scheduled work of the API that runs the projector (docs/operations.md "Configuration").
 * Digests (`AUDIT_DIGEST_EVERY`; docs/DESIGN.md "Scheduled digests"): signed on a thread of its own,
 * recorded in the log with their tree kept, so GET /audit/digest answers them; a run while the log
 * has not moved signs nothing; the next run after more writes covers them, and the log still
 * verifies. Backups (`BACKUP_EVERY`; docs/operations.md "Backups and restore"): taken into
 * `BACKUP_DIR` beside the writes, and `backup verify` accepts them.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminWorker } from '../support/admin-cli';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';
import { Projections } from '../../apps/api/src/composition/projections';

/** The admin CLI, loaded once in a process of its own for this file (test/support/admin-cli.ts). */
const admin = AdminWorker.forFile();

describe('the scheduled work of the API that projects', () => {
  let api: RunningApi;
  let token: string;
  const base = '/api/v2026.1';
  const backupDir = mkdtempSync(join(tmpdir(), 'scheduled-backups-'));

  beforeAll(async () => {
    api = await RunningApi.start({
      auditDigest: { everyMs: 3_600_000, signingKeyFile: null },
      backups: { dir: backupDir, everyMs: 3_600_000, keep: 2, signingKeyFile: null },
    });
    token = await api.providerToken('10000140');
  });
  afterAll(() => api.close());

  const latest = async () => {
    const res = await api.request('GET', `${base}/audit/digest`, token);
    return res.status === 200 ? (res.body as { data: { position: number; streams: number; root: string } }).data : null;
  };

  it('signs when the log moved, and nothing while it has not', async () => {
    const digests = api.app.get(Projections).background!.digests!;
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

    const verified = await admin.run(['audit', 'verify'], api.dataDir);
    expect(verified.code).toBe(0);
  });

  it('takes a backup beside the writes that backup verify accepts, and keeps the newest BACKUP_KEEP', async () => {
    const backups = api.app.get(Projections).background!.backups!;
    expect(backups).not.toBeNull();
    const writes = Array.from({ length: 5 }, () => api.request('POST', `${base}/trainees`, token, uniqueTrainee('v2026.1')));
    await backups.runNow();
    expect((await Promise.all(writes)).map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    await backups.runNow();
    await backups.runNow();
    expect(backups.counts).toEqual({ taken: 3, failed: 0 });
    const taken = readdirSync(backupDir).filter((name) => /^\d{4}-/.test(name));
    expect(taken).toHaveLength(2);

    const verified = await admin.run(['backup', 'verify', join(backupDir, taken.sort()[1])], api.dataDir);
    expect(verified.stdout).toMatch(
      /holds: 6 files as its manifest says; .*every chain holds; 7 sealed events open with its keys, 0 are of erased/s,
    );
    expect(verified.code).toBe(0);
  });
});
