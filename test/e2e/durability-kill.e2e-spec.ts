import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { missingWrites, runWriters, startApiProcess, type DurabilityRecord } from '../support/durability';
import { ensureBuilt } from '../support/processes';

/**
 * The API process is killed with SIGKILL while writers create trainees, PATCH them and POST
 * placements; restarted on the same data dir, it answers every write it had acknowledged
 * (docs/DESIGN.md property 4: an acknowledged write survives a `kill -9`), and it answered no 5xx
 * before the kill. Two kill cycles, about a second of load each. Twelve writers, so that appends
 * commit in groups (docs/DESIGN.md "Group commit"); every acknowledged create holds its claim in
 * the key store's registration reservations, and a claim is left without its trainee's stream only
 * by a create in flight at a kill, at most one per writer (docs/DESIGN.md "Other properties").
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
      const load = runWriters(api.url, token, 12, record, () => false);
      await new Promise((r) => setTimeout(r, 1_000));
      expect(await api.proc.stop('SIGKILL')).toBeNull();
      await load;
      expect(record.acknowledged).toBeGreaterThan(before);
      api = await startApiProcess(dir);
      expect(await missingWrites(api.url, token, record)).toEqual([]);
      const claims = storedClaims(dir);
      expect(record.trainees.map((t) => t.id).filter((id) => !claims.all.includes(id))).toEqual([]);
      expect(claims.withoutTrainee.length).toBeLessThanOrEqual(12 * (cycle + 1));
    }
    expect(record.serverErrors).toEqual([]);
  }, 60_000);
});

/** The trainee ids of the registration claims in the key store, and those of them whose trainee stream does not exist. */
function storedClaims(dataDir: string): { all: string[]; withoutTrainee: string[] } {
  const keys = new Database(join(dataDir, 'keys.sqlite'), { readonly: true });
  const events = new Database(join(dataDir, 'events.sqlite'), { readonly: true });
  try {
    const all = keys.prepare(`SELECT trainee_id FROM registration_claims`).pluck().all() as string[];
    expect(all.length).toBeGreaterThan(0);
    const hasStream = events.prepare(`SELECT 1 FROM events WHERE stream_id = ? LIMIT 1`).pluck();
    return { all, withoutTrainee: all.filter((id) => hasStream.get(`trainee-${id}`) === undefined) };
  } finally {
    keys.close();
    events.close();
  }
}
