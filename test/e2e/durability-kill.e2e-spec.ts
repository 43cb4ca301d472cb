import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { missingWrites, runWriters, startApiProcess, type DurabilityRecord } from '../support/durability';
import { ensureBuilt } from '../support/processes';

/**
 * Issue 12, "Tests that keep it so": the API process is killed with SIGKILL while writers create
 * trainees, PATCH them and POST placements; restarted on the same data dir, it answers every write it
 * had acknowledged (docs/DESIGN.md: an acknowledged write is durable), and it answered no 5xx before
 * the kill. Two kill cycles, about a second of load each.
 */
describe('acknowledged writes across SIGKILL of the API process', () => {
  let dir: string;
  let api: Awaited<ReturnType<typeof startApiProcess>> | null = null;

  beforeAll(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'durability-kill-'));
  }, 180_000);
  afterAll(async () => {
    await api?.proc.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds every acknowledged create, PATCH and placement after each kill -9 and restart', async () => {
    const record: DurabilityRecord = { trainees: [], acknowledged: 0, serverErrors: [] };
    api = await startApiProcess(dir);
    const token = api.token!;
    expect(token).toMatch(/^sandbox_/);
    for (let cycle = 0; cycle < 2; cycle++) {
      const before = record.acknowledged;
      const load = runWriters(api.url, token, 6, record, () => false);
      await new Promise((r) => setTimeout(r, 1_000));
      expect(await api.proc.stop('SIGKILL')).toBeNull();
      await load;
      expect(record.acknowledged).toBeGreaterThan(before);
      api = await startApiProcess(dir);
      expect(await missingWrites(api.url, token, record)).toEqual([]);
    }
    expect(record.serverErrors).toEqual([]);
  }, 60_000);
});
