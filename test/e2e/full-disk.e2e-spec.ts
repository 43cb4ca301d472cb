// Slow by design: the built API on a tmpfs filled under write load, held nearly full for 4 s (what an older version lost), restarted.
import { join } from 'node:path';
import { missingWrites, runWriters, startApiProcess, type DurabilityRecord } from '../support/durability';
import { ensureBuilt } from '../support/processes';
import { checkAgainstServedDocument } from '../support/served-document';
import { TmpfsDisk } from '../support/tmpfs-disk';
import { uniqueTrainee } from '../support/trainee-input';

type ApiProcess = Awaited<ReturnType<typeof startApiProcess>>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `/readyz` of the API at `url`: its status and reasons. */
async function readiness(url: string): Promise<{ status: number; reasons: string[] }> {
  const res = await fetch(`${url}/readyz`);
  return { status: res.status, reasons: ((await res.json()) as { reasons: string[] }).reasons };
}

/** Polls `/readyz` until `done` holds for it, for at most `ms`; resolves with the last answer. */
async function readinessUntil(url: string, done: (r: { status: number; reasons: string[] }) => boolean, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const r = await readiness(url);
    if (done(r) || Date.now() > deadline) return r;
    await sleep(100);
  }
}

/** A create sent to the API at `url`, checked against the document it serves; its status, `Retry-After` and body. */
async function create(url: string, token: string): Promise<{ status: number; retryAfter: string | null; body: unknown }> {
  const path = '/api/v2026.1/trainees';
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(uniqueTrainee('v2026.1')),
  });
  const text = await res.text();
  await checkAgainstServedDocument(url, 'POST', path, { status: res.status, headers: res.headers, text });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: JSON.parse(text) };
}

/**
 * Checkpoints the event log's and the read models' write-ahead logs, as SQLite's own checkpoints
 * and a backup do: the log's is kept at its size and written again from its start, so appends fit
 * in it while the disk is full; the read models' is truncated, so every projected batch needs new
 * space. Acknowledged writes the projector cannot apply follow: what an older version skipped.
 */
async function checkpointStores(disk: TmpfsDisk, dataDir: string): Promise<void> {
  const checkpoint = (file: string, mode: string) =>
    `{ const d = new (require('better-sqlite3'))('${join(dataDir, file)}'); d.pragma('wal_checkpoint(${mode})'); d.close(); }`;
  await disk.sh(`node -e "${checkpoint('events.sqlite', 'RESTART')} ${checkpoint('read-models.sqlite', 'TRUNCATE')}"`);
}

const FULL = 'the data directory is full';
const REFUSED = {
  status: 503,
  retryAfter: '30',
  body: { errors: [{ error: 'ServiceUnavailable', message: 'The service cannot store changes at the moment; please try again later' }] },
};

/**
 * A real full disk under the API (docs/operations.md "When the disk fills"; docs/DESIGN.md property
 * 4, "Failures of the subscription"): the built API runs on a 32 MiB tmpfs of its own (`TmpfsDisk`)
 * under write load (`runWriters`), and a filler file takes every free byte. Writes then answer 503
 * with `Retry-After` in the contract's shape, never 500, and `/readyz` says the data directory is
 * full. Then the disk hovers at nearly full (16 KiB free): the log takes writes the projector
 * cannot apply (an older version skipped them there after a few attempts, answered them 2xx and
 * lost them for good). Killed and restarted with the disk still full, the API starts, refuses
 * writes, says why and skips nothing. Once the filler is deleted it goes on by itself (ready, every
 * acknowledged write read back), and again after a restart. About 20 s.
 */
describe('a full data directory under the API', () => {
  let disk: TmpfsDisk | null = null;
  let api: ApiProcess | null = null;

  beforeAll(() => ensureBuilt(), 180_000);
  afterAll(async () => {
    await api?.proc.stop('SIGKILL');
    disk?.release();
  });

  it('refuses writes with 503 and says why, loses and skips nothing, and goes on once space is back', async () => {
    disk = await TmpfsDisk.mount(32);
    const dataDir = join(disk.dir, 'data');
    const start = () => startApiProcess(dataDir, {}, disk!.prefix);
    api = await start();
    const token = api.token!;
    const record: DurabilityRecord = { trainees: [], acknowledged: 0, serverErrors: [] };
    let stop = false;
    const load = runWriters(api.url, token, 8, record, () => stop);
    await sleep(1_000);
    await checkpointStores(disk, dataDir);
    await disk.fill();
    expect(await disk.freeBytes()).toBe(0);
    const refused = await create(api.url, token);
    const full = await readinessUntil(api.url, (r) => r.reasons.includes(FULL));
    await disk.sh(`truncate -s -16K ${disk.dir}/filler`);
    await sleep(4_000);
    expect(refused).toEqual(REFUSED);
    expect(full).toEqual({ status: 503, reasons: expect.arrayContaining([FULL]) });

    // Killed under that load and restarted with the disk still full: it starts, refuses writes, says why.
    await api.proc.stop('SIGKILL');
    stop = true;
    await load;
    expect(record.serverErrors.filter((e) => !e.endsWith(': 503'))).toEqual([]);
    api = await start();
    expect(await create(api.url, token)).toEqual(REFUSED);
    expect(await readiness(api.url)).toEqual({ status: 503, reasons: expect.arrayContaining([FULL]) });

    // Space back: the projector and readiness go on by themselves, with every acknowledged write.
    await disk.unfill();
    expect(await readinessUntil(api.url, (r) => r.status === 200)).toEqual({ status: 200, reasons: [] });
    expect(await missingWrites(api.url, token, record)).toEqual([]);
    expect((await create(api.url, token)).status).toBe(201);

    await api.proc.stop('SIGKILL');
    api = await start();
    expect(await readinessUntil(api.url, (r) => r.status === 200)).toEqual({ status: 200, reasons: [] });
    expect(await missingWrites(api.url, token, record)).toEqual([]);
  }, 90_000);
});
