// Slow by design: API processes under write load with the CLI beside them, and a 3 s watch for an erasure undone (it once was).
/**
 * Processes beside each other on one data directory (docs/operations.md "Commands beside the
 * running service"): the API holds SQLite's lock on every database it has open, so another process
 * never takes one of them for unused; an erasure made with the admin CLI beside an API under
 * write load stays made while the sqlite3 shell reads the key store, a backup is taken and the
 * service key is rotated.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAdmin } from '../support/admin-cli';
import { dataKeyRow, locksHeldBy, openDatabasesOf, sqliteShellReading } from '../support/beside';
import { missingWrites, runWriters, startApiProcess, type DurabilityRecord } from '../support/durability';
import { ensureBuilt } from '../support/processes';
import { uniqueTrainee } from '../support/trainee-input';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('processes beside the API on one data directory', () => {
  let dir: string;
  let backups: string;
  let api: Awaited<ReturnType<typeof startApiProcess>> | null = null;

  beforeAll(async () => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'beside-'));
    backups = mkdtempSync(join(tmpdir(), 'beside-backups-'));
    api = await startApiProcess(dir);
  }, 180_000);
  afterAll(async () => {
    await api?.proc.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    rmSync(backups, { recursive: true, force: true });
  });

  it('holds a lock on every SQLite database the API has open, once its writes have used them all', async () => {
    const record: DurabilityRecord = { trainees: [], acknowledged: 0, serverErrors: [] };
    let stop = false;
    const load = runWriters(api!.url, api!.token!, 4, record, () => stop);
    await sleep(500);
    stop = true;
    await load;
    expect(record.acknowledged).toBeGreaterThan(0);

    const pid = api!.proc.child.pid!;
    const open = openDatabasesOf(pid);
    expect(open.map((f) => f.slice(dir.length + 1))).toEqual(
      expect.arrayContaining(['events.sqlite', 'keys.sqlite', 'read-models.sqlite']),
    );
    expect(open.filter((file) => locksHeldBy(pid, file) === 0)).toEqual([]);
  }, 60_000);

  it('keeps an erasure made beside an API under write load, a sqlite3 shell reading, a backup and a rotation', async () => {
    const token = api!.token!;
    const created = await fetch(`${api!.url}/api/v2026.1/trainees`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(uniqueTrainee('v2026.1', { last_name: 'Quennevais' })),
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { data: { trainee_id: string } }).data.trainee_id;

    const record: DurabilityRecord = { trainees: [], acknowledged: 0, serverErrors: [] };
    let stop = false;
    // Creates write the key store (a data key and a registration claim each): the API's own
    // commits there are what once wrote an erased key back.
    const load = Promise.all([runWriters(api!.url, token, 4, record, () => stop), runWriters(api!.url, token, 4, record, () => stop, 1)]);
    const stopReading = sqliteShellReading(join(dir, 'keys.sqlite'));
    try {
      await sleep(300);
      const env = { BACKUP_DIR: backups };
      const [erased, backup, rotated] = await Promise.all([
        runAdmin(['trainee', 'erase', id, '--reason', 'Request DPO-2026-88'], dir, env),
        runAdmin(['backup', 'create', '--output', join(backups, 'beside')], dir, env),
        runAdmin(['keys', 'rotate'], dir, env),
      ]);
      expect([erased.code, erased.stderr]).toEqual([0, '']);
      expect(backup.code).toBe(0);
      expect(rotated.code).toBe(0);
      // The erasure was undone within a second when the API held no lock; wait several times that.
      await sleep(3_000);
    } finally {
      stop = true;
      await load;
      await stopReading();
    }
    expect(record.serverErrors).toEqual([]);
    expect(await api!.proc.stop('SIGTERM')).toBe(0);
    api = null;

    expect(dataKeyRow(dir, id)).toEqual({ wrapped: false, erasedAt: expect.any(String) });
    const history = await runAdmin(['trainee', 'history', id, '--json'], dir);
    expect(history.code).toBe(0);
    expect(history.stdout).toContain('[erased]');
    expect(history.stdout).not.toContain('Quennevais');

    api = await startApiProcess(dir);
    const gone = await fetch(`${api.url}/api/v2026.1/trainees/${id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(gone.status).toBe(404);
    expect(await missingWrites(api.url, token, record)).toEqual([]);
  }, 90_000);
});
