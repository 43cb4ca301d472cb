/**
 * Two OS processes append to one SQLite data directory at the same time, to their own streams and
 * racing on shared ones with optimistic concurrency; no acknowledged event may be lost or doubled,
 * and a subscription in this (third) process must see every event once, in order.
 * Sources: docs/DESIGN.md, "The event store port" (SQLite adapter: WAL, appends in one transaction) and
 * properties 2 (no lost update) and 4 (acknowledged writes survive).
 */
import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import { openSqliteEventStore, SqliteEventStore } from '@app/stores/sqlite';
import { LOG_START, RecordedEvent } from '@app/event-sourcing';
import type { WorkerReport } from '../support/event-store/append-worker';

const WORKER_SCRIPT = path.resolve(__dirname, '../support/event-store/append-worker.ts');
const WORKERS = ['w1', 'w2'];
const OWN_EVENTS = 300;
const SHARED_STREAMS = 3;
const SHARED_APPENDS = 60;
/** Safety net against a hung child, not a timing assertion. */
const LIVENESS_LIMIT_MS = 25_000;

/** A spawned worker: its process, and its stdout as lines. */
interface Worker {
  child: ChildProcessWithoutNullStreams;
  nextLine: () => Promise<string>;
  stderr: () => string;
  exited: Promise<number | null>;
}

function startWorker(dataDir: string, name: string): Worker {
  const child = spawn(
    process.execPath,
    // `node --import tsx` (tsx's loader) rather than the tsx CLI: the CLI puts a second process
    // between us and the worker and takes over its stdin, which carries the start signal.
    [
      '--import',
      pathToFileURL(require.resolve('tsx')).href,
      WORKER_SCRIPT,
      dataDir,
      name,
      String(OWN_EVENTS),
      String(SHARED_STREAMS),
      String(SHARED_APPENDS),
    ],
    { cwd: path.resolve(__dirname, '../..'), stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const lines: string[] = [];
  const waiters: Array<(line: string) => void> = [];
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    const waiter = waiters.shift();
    if (waiter) waiter(line);
    else lines.push(line);
  });
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      const queued = lines.shift();
      if (queued !== undefined) return resolve(queued);
      waiters.push(resolve);
      void exited.then((code) => reject(new Error(`worker ${name} exited with ${code} before answering:\n${stderr}`)));
    });
  return { child, nextLine, stderr: () => stderr, exited };
}

async function withLimit<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up waiting for ${what}`)), LIVENESS_LIMIT_MS);
  });
  try {
    return await Promise.race([promise, limit]);
  } finally {
    clearTimeout(timer);
  }
}

describe('SqliteEventStore with two OS processes appending to one data directory', () => {
  let dataDir: string;
  let store: SqliteEventStore;
  let workers: Worker[] = [];

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'event-store-multiprocess-'));
    store = openSqliteEventStore(dataDir, { pollIntervalMs: 10 });
  });

  afterEach(async () => {
    for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill();
    workers = [];
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses, doubles and reorders no event, and a subscription in a third process sees them all', async () => {
    const expectedTotal = WORKERS.length * (OWN_EVENTS + SHARED_APPENDS);
    const subscription = store.subscribeToAll({ fromPosition: LOG_START });
    const live: RecordedEvent[] = [];
    const watching = (async () => {
      for await (const e of subscription) {
        live.push(e);
        if (live.length === expectedTotal) break;
      }
    })();

    workers = WORKERS.map((name) => startWorker(dataDir, name));
    for (const w of workers) expect(await withLimit(w.nextLine(), 'a worker to be ready')).toBe('ready');
    for (const w of workers) w.child.stdin.write('go\n');
    const reports = await withLimit(
      Promise.all(workers.map(async (w) => JSON.parse(await w.nextLine()) as WorkerReport)),
      'the workers to finish',
    );
    const codes = await withLimit(Promise.all(workers.map((w) => w.exited)), 'the workers to exit');
    expect(codes).toEqual([0, 0]);
    await withLimit(watching, `the subscription to see ${expectedTotal} events (saw ${live.length})`);

    const stored: RecordedEvent[] = [];
    for (let page = await store.readAll(); page.length > 0; page = await store.readAll({ fromPosition: page[page.length - 1].position })) {
      stored.push(...page);
    }

    // Every acknowledged event is stored exactly once, where its append said, and nothing else is.
    const acknowledged = reports.flatMap((r) => r.acknowledged);
    expect(acknowledged).toHaveLength(expectedTotal);
    expect(stored).toHaveLength(expectedTotal);
    expect(new Set(stored.map((e) => e.id)).size).toBe(expectedTotal);
    const byId = new Map(stored.map((e) => [e.id, e]));
    const mismatches = acknowledged.filter((a) => {
      const e = byId.get(a.id);
      return !e || e.streamId !== a.streamId || e.streamRevision !== a.revision || e.position !== a.position;
    });
    expect(mismatches).toEqual([]);

    // Positions are 1..N without gap; each stream's revisions are 0..n-1 in position order.
    expect(stored.map((e) => e.position)).toEqual(Array.from({ length: expectedTotal }, (_, i) => i + 1));
    const revisionsByStream = new Map<string, number[]>();
    for (const e of stored) revisionsByStream.set(e.streamId, [...(revisionsByStream.get(e.streamId) ?? []), e.streamRevision]);
    for (const [streamId, revisions] of revisionsByStream) {
      expect({ streamId, revisions }).toEqual({ streamId, revisions: revisions.map((_, i) => i) });
    }

    // Optimistic concurrency on the shared streams: each event sits right after the revision its
    // writer read, so no writer's update was silently overwritten.
    const shared = stored.filter((e) => e.streamId.startsWith('shared-'));
    expect(shared).toHaveLength(WORKERS.length * SHARED_APPENDS);
    expect(shared.filter((e) => (e.data as { expected: number }).expected + 1 !== e.streamRevision)).toEqual([]);
    for (const name of WORKERS) {
      expect(shared.filter((e) => (e.data as { worker: string }).worker === name)).toHaveLength(SHARED_APPENDS);
    }

    // The subscription here, woken only by polling for the workers' appends, saw the same log.
    expect(live).toEqual(stored);
  });
});
