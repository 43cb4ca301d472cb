// Slow by design: the drill is the claim (500 trainees read before and after, a backup under 32 writers, a kill, a restore).
/**
 * The restore drill (docs/operations.md "Backups and restore"): 500 trainees; a backup taken by
 * `admin backup create` while 32 connections keep writing; 3 trainees erased after it (the erasure
 * ledger in `BACKUP_DIR` records them); the API killed with SIGKILL and its data dir deleted;
 * `admin backup restore`; the API started again. Every trainee made before the backup answers the
 * same bytes, the 3 erased answer 404 and their values are nowhere under the data dir, the history
 * verifies, a change feed cursor taken before the backup still reads on, and a create retried with
 * the idempotency key it used before the backup runs again (a backup keeps no kept answer) and
 * finds its trainee there (409). A restore refuses without a ledger unless told, and refuses a
 * ledger with a line deleted.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newEventId, toEventData } from '@app/event-sourcing';
import { loadServiceKey, personalDataOptions } from '@app/runtime/process';
import { openStores } from '@app/composition';
import { traineeStreamId } from '@app/trainees/decider';
import { exampleRegistration } from '@app/trainees/decider/testing/trainee-events';
import { AdminWorker, runAdmin } from '../support/admin-cli';
import { allFilesText } from '../support/data-dir-files';
import { runWriters, startApiProcess, type DurabilityRecord } from '../support/durability';
import { uniqueTrainee } from '../support/trainee-input';
import { csvFile, traineeRows } from '../support/upload-files';
import { ensureBuilt } from '../support/processes';

const TRAINEES = 500;
const WRITERS = 32;
const base = '/api/v2025.0/trainees';

/**
 * Appends `ids.length` trainees of the demo provider (UKPRN 10000001) to the data dir's log from this
 * process, sealed with their data keys under the service key of `keyFile` as the API seals them,
 * 200 at a time (the appends of a turn commit together), while the API runs beside it: hundreds in
 * a second, where as many POSTs take a minute on a loaded machine. The first trainees' last names are
 * `lastNames`.
 */
async function seedTrainees(dataDir: string, keyFile: string, ids: string[], lastNames: string[]): Promise<void> {
  const key = loadServiceKey({ dataDir, dataKeyFile: keyFile }).key;
  const stores = await openStores(
    { dataDir, eventStoreUrl: null, mongodbUrl: null },
    { personalData: personalDataOptions({ sealPersonalData: true }, key) },
  );
  try {
    for (let from = 0; from < ids.length; from += 200)
      await Promise.all(
        ids.slice(from, from + 200).map((id, j) => {
          const details = from + j < lastNames.length ? { last_name: lastNames[from + j] } : {};
          const events = exampleRegistration({ trainee_id: id, ukprn: '10000001', details });
          return stores.eventStore.appendToStream(
            traineeStreamId(id),
            toEventData(events, { occurredAt: new Date().toISOString() }, newEventId),
          );
        }),
      );
  } finally {
    await stores.close();
  }
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  for (const until = Date.now() + timeoutMs; !(await check());) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** `tasks` run `width` at a time. */
async function inParallel<T>(count: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const i = next++;
        out[i] = await task(i);
      }
    }),
  );
  return out;
}

describe('backup and restore drill', () => {
  let root: string;
  let dataDir: string;
  let backups: string;
  let env: Record<string, string>;
  let api: Awaited<ReturnType<typeof startApiProcess>> | null = null;
  /** The admin CLI in a process loaded once; the backup under load, the drill's restore and the first verify run the program. */
  let admin: AdminWorker;

  beforeAll(() => {
    ensureBuilt();
    admin = AdminWorker.start();
    root = mkdtempSync(join(tmpdir(), 'backup-drill-'));
    dataDir = join(root, 'data');
    backups = join(root, 'backups');
    const keyFile = join(root, 'service-key');
    writeFileSync(keyFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    // No TRN arrives during the drill: every answer stays as it was read before the backup.
    env = { DATA_KEY_FILE: keyFile, BACKUP_DIR: backups, REGISTRY_TRN_DELAY_MS: '2147483647' };
  }, 180_000);
  afterAll(async () => {
    await admin.close();
    await api?.proc.stop('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  it('restores every trainee made before the backup, keeps the erased ones erased, and the history and cursors hold', async () => {
    api = await startApiProcess(dataDir, env);
    const token = api.token!;
    const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      fetch(`${api!.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const ids = Array.from({ length: TRAINEES }, (_, i) => `Drill${String(i).padStart(4, '0')}x${process.pid}`);
    const erasedValues = [0, 1, 2].map((i) => `Erasable${'xyz'[i]}qvw${process.pid}`);
    await seedTrainees(dataDir, env.DATA_KEY_FILE, ids, erasedValues);
    // The API sees the other process's appends within its poll interval.
    await waitFor(async () => (await call('GET', `${base}/${ids[TRAINEES - 1]}`)).status === 200);
    const before = await inParallel(TRAINEES, WRITERS, async (i) => (await call('GET', `${base}/${ids[i]}`)).text());
    const feed = (await (await call('GET', '/api/v2026.1/changes?limit=500')).json()) as { next_cursor: string };
    const keyed = uniqueTrainee('v2025.0');
    const first = await call('POST', base, keyed, { 'idempotency-key': 'drill-key-1' });
    expect(first.status).toBe(201);
    const firstBody = await first.text();
    // An upload, its file and check messages kept outside the log, in uploads.sqlite (docs/DESIGN.md "Uploads").
    const rows = traineeRows('v2026.1', 2);
    rows[1] = { ...rows[1], study_mode: 'zz' };
    const uploaded = await fetch(`${api.url}/api/v2026.1/trainee-uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      body: csvFile('v2026.1', rows),
    });
    expect(uploaded.status).toBe(202);
    const uploadId = ((await uploaded.json()) as { data: { upload_id: string } }).data.upload_id;
    await waitFor(
      async () => ((await (await call('GET', `/api/v2026.1/trainee-uploads/${uploadId}`)).json()) as any).data.status === 'failed',
    );
    const uploadErrors = await (await call('GET', `/api/v2026.1/trainee-uploads/${uploadId}/errors`)).text();
    expect(uploadErrors).toContain("study_mode: study_mode has invalid reference data value of 'zz'");

    const record: DurabilityRecord = { trainees: [], acknowledged: 0, serverErrors: [] };
    let writing = true;
    const load = runWriters(api.url, token, WRITERS, record, () => !writing);
    // Under way: every writer has had a write acknowledged, or near enough.
    await waitFor(async () => record.acknowledged >= WRITERS);
    const acknowledgedAtStart = record.acknowledged;
    const created = await runAdmin(['backup', 'create', '--output', join(backups, 'b1')], dataDir, env);
    const acknowledgedAtEnd = record.acknowledged;
    writing = false;
    await load;
    expect(created.stderr).not.toMatch(/Error/);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^backup .*b1: position \d+, \d+ events in \d+ streams; 6 files/);
    expect(readdirSync(join(backups, 'b1'))).toContain('uploads.sqlite');
    // The writes went on while the backup was taken, and none failed.
    expect(acknowledgedAtEnd).toBeGreaterThan(acknowledgedAtStart);
    expect(record.serverErrors).toEqual([]);
    expect(statSync(join(backups, 'b1')).mode & 0o777).toBe(0o700);
    // The kept state is copied whole; the read models are not copied at all.
    expect(readdirSync(join(backups, 'b1')).filter((f) => /^(state|read-models)\./.test(f))).toEqual(['state.sqlite']);
    for (const f of readdirSync(join(backups, 'b1'))) expect(statSync(join(backups, 'b1', f)).mode & 0o777).toBe(0o600);

    for (const id of ids.slice(0, 3)) {
      const erased = await admin.run(['trainee', 'erase', id, '--reason', 'Erasure request DRILL-1'], dataDir, env);
      expect(erased.code).toBe(0);
    }
    expect(await api.proc.stop('SIGKILL')).toBeNull();
    api = null;
    rmSync(dataDir, { recursive: true, force: true });

    const restored = await runAdmin(['backup', 'restore', join(backups, 'b1')], dataDir, env);
    expect(restored.stderr).not.toMatch(/Error/);
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(/3 trainees, 3 erased again, 0 not in this backup/);
    expect(restored.stdout).not.toMatch(/state\.sqlite is not in this backup/);

    api = await startApiProcess(dataDir, env);
    const after = await inParallel(TRAINEES, WRITERS, async (i) => {
      const res = await call('GET', `${base}/${ids[i]}`);
      return { status: res.status, text: await res.text() };
    });
    expect(after.slice(0, 3).map((a) => a.status)).toEqual([404, 404, 404]);
    const changed = after.flatMap((a, i) => (i >= 3 && (a.status !== 200 || a.text !== before[i]) ? [ids[i]] : []));
    expect(changed).toEqual([]);
    const retried = await call('POST', base, keyed, { 'idempotency-key': 'drill-key-1' });
    expect(retried.status).toBe(409);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(((await retried.json()) as { data: { trainee_id: string }[] }).data[0].trainee_id).toBe(JSON.parse(firstBody).data.trainee_id);
    // The upload reads as before: its file and messages came back with the log.
    expect(await (await call('GET', `/api/v2026.1/trainee-uploads/${uploadId}/errors`)).text()).toBe(uploadErrors);

    const bytes = allFilesText(dataDir);
    // A kept trainee's values are in the read models: the scan reads what it should.
    expect(bytes).toContain(JSON.parse(before[3]).data.last_name);
    for (const value of erasedValues) expect(bytes).not.toContain(value);

    const page = await call('GET', `/api/v2026.1/changes?after=${encodeURIComponent(feed.next_cursor)}&limit=1000`);
    expect(page.status).toBe(200);
    expect(((await page.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);

    const audit = await admin.run(['audit', 'verify'], dataDir, env);
    expect(audit.code).toBe(0);
    expect(audit.stdout).toMatch(/every chain holds/);
  }, 240_000);

  it("verifies the drill's backup with the CLI, and names what is wrong in a torn or tampered copy, which restore refuses", async () => {
    const b1 = join(backups, 'b1');
    const good = await runAdmin(['backup', 'verify', b1], dataDir, env);
    expect(good.code).toBe(0);
    const copyOf = (name: string) => {
      const to = join(root, name);
      cpSync(b1, to, { recursive: true });
      return to;
    };

    const torn = copyOf('torn-log');
    const log = join(torn, 'events.sqlite');
    const bytes = readFileSync(log);
    const at = bytes.indexOf('TraineeRegistered', 0, 'latin1');
    expect(at).toBeGreaterThan(0);
    bytes[at + 1] ^= 0x01;
    writeFileSync(log, bytes);
    const tornRun = await admin.run(['backup', 'verify', torn], dataDir, env);
    expect(tornRun.code).toBe(1);
    expect(tornRun.stdout + tornRun.stderr).toContain("events.sqlite: its SHA-256 is not the manifest's (a byte changed since the backup)");
    const into = join(root, 'restore-refused');
    const refused = await admin.run(['backup', 'restore', torn], into, env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/does not verify as copied into .*; nothing was restored \(the copies are removed\)/);
    expect(existsSync(into)).toBe(false);

    const keyless = copyOf('keyless');
    const keys = new Database(join(keyless, 'keys.sqlite'));
    // A trainee of the drill the backup holds (the key store also holds keys made ahead for trainees not yet registered).
    const gone = `Drill0010x${process.pid}`;
    expect(keys.prepare(`DELETE FROM data_keys WHERE trainee_id = ?`).run(gone).changes).toBe(1);
    keys.close();
    const keylessRun = await admin.run(['backup', 'verify', keyless], dataDir, env);
    expect(keylessRun.code).toBe(1);
    // Its hash fails, so the key store copy is never opened: the hash is the problem named.
    expect(keylessRun.stderr).toContain("keys.sqlite: its SHA-256 is not the manifest's (a byte changed since the backup)");
    expect(keylessRun.stderr).not.toContain('has no data key');

    const edited = copyOf('edited-manifest');
    const manifestFile = join(edited, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    writeFileSync(manifestFile, JSON.stringify({ ...manifest, log: { ...manifest.log, position: manifest.log.position + 1 } }));
    const editedRun = await admin.run(['backup', 'verify', edited], dataDir, env);
    expect(editedRun.code).toBe(1);
    expect(editedRun.stdout + editedRun.stderr).toContain('manifest.json: the manifest was changed after the backup was made');
  }, 120_000);

  it('refuses a restore without a ledger unless told, and a ledger with a line deleted; backup verify names that line', async () => {
    const b1 = join(backups, 'b1');
    const ledger = join(backups, 'erasure-ledger.jsonl');
    const { BACKUP_DIR: _backupDir, ...withoutBackupDir } = env;
    const elsewhere = join(root, 'elsewhere');
    cpSync(b1, elsewhere, { recursive: true });

    const into = join(root, 'restore-no-ledger');
    const refused = await admin.run(['backup', 'restore', elsewhere], into, withoutBackupDir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/no erasure ledger was found .*every trainee erased after this backup was made \(.*\) would come back/);
    expect(refused.stderr).toMatch(/--no-ledger/);
    expect(existsSync(into)).toBe(false);
    const knowingly = await admin.run(['backup', 'restore', elsewhere, '--no-ledger'], into, withoutBackupDir);
    expect(knowingly.code).toBe(0);
    expect(knowingly.stdout).toMatch(/erasure ledger: none \(--no-ledger\): every trainee erased after .* is back, with its personal data/);

    const lines = readFileSync(ledger, 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(3);
    const cut = join(root, 'cut-ledger.jsonl');
    writeFileSync(cut, `${[lines[0], lines[2]].join('\n')}\n`);
    const verified = await admin.run(['backup', 'verify', b1, '--ledger', cut], dataDir, env);
    expect(verified.code).toBe(1);
    expect(verified.stderr).toContain(`${cut} line 2: its MAC does not hold`);
    const intoCut = join(root, 'restore-cut-ledger');
    const cutRun = await admin.run(['backup', 'restore', b1, '--ledger', cut], intoCut, env);
    expect(cutRun.code).toBe(1);
    expect(cutRun.stderr).toMatch(/the erasure ledger .* does not hold .*; nothing was restored/);
    expect(existsSync(intoCut)).toBe(false);
    const whole = await admin.run(['backup', 'verify', b1, '--ledger', ledger], dataDir, env);
    expect(whole.code).toBe(0);
    expect(whole.stdout).toContain(`erasure ledger ${ledger}: 3 lines, every MAC holds, in order`);
  }, 120_000);
});
