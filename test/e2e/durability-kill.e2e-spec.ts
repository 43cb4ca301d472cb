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
 * commit in groups (docs/DESIGN.md "Group commit"); and no registration claim is left without its
 * trainee's stream (on SQLite a create writes both in one transaction, docs/DESIGN.md "Other
 * properties").
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
      expect(claimsWithoutTrainee(join(dir, 'events.sqlite'))).toEqual([]);
    }
    expect(record.serverErrors).toEqual([]);
  }, 60_000);
});

/** The trainee ids of stored registration claims whose trainee stream does not exist. */
function claimsWithoutTrainee(eventsFile: string): string[] {
  const db = new Database(eventsFile, { readonly: true });
  try {
    const claimed = db
      .prepare(`SELECT json_extract(data, '$.trainee_id') FROM events WHERE type = 'RegistrationClaimed'`)
      .pluck()
      .all() as string[];
    expect(claimed.length).toBeGreaterThan(0);
    const hasStream = db.prepare(`SELECT 1 FROM events WHERE stream_id = ? LIMIT 1`).pluck();
    return claimed.filter((id) => hasStream.get(`trainee-${id}`) === undefined);
  } finally {
    db.close();
  }
}
