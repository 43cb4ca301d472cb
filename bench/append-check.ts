/**
 * `node --import tsx bench/append-check.ts <data dir> [--streams N]`: the CPU one append of one
 * event costs the embedded event store, on a copy of a bench data dir's log (docs/DESIGN.md
 * "Verifiable history"; BENCHMARKS.md "What the hash chain costs"): to N trainee streams this connection has not appended to
 * (default 2000; each stream's stored events are checked before it is chained to), then to the same
 * streams again (the head this connection wrote is taken), chained and, for comparison, unchained
 * (`hashChain: false`, as `HASH_CHAIN=false`). This process's CPU per append in µs (the append,
 * its group commit and SQLite's work; `synchronous=NORMAL`, so no fsync), the median of 5 passes
 * over fresh copies. Times on a shared machine are noisy: compare figures of one run.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { openSqliteEventStore } from '../libs/stores/sqlite/event-log/sqlite-event-store';

const args = process.argv.slice(2);
const at = args.indexOf('--streams');
const streamCount = at >= 0 ? Number(args.splice(at, 2)[1]) : 2000;
const [dataDir] = args;
if (!dataDir || !existsSync(join(dataDir, 'events.sqlite')) || !(streamCount > 0)) {
  process.stderr.write('usage: node --import tsx bench/append-check.ts <data dir with events.sqlite> [--streams N]\n');
  process.exit(2);
}

/** The last revision of the first `count` trainee streams of the log, in stream-id order. */
function trainees(file: string, count: number): Array<{ streamId: string; revision: number }> {
  const db = new Database(file, { readonly: true });
  const rows = db
    .prepare(
      "SELECT stream_id AS streamId, MAX(revision) AS revision FROM events WHERE stream_id LIKE 'trainee-%' GROUP BY stream_id ORDER BY stream_id LIMIT ?",
    )
    .all(count) as Array<{ streamId: string; revision: number }>;
  db.close();
  return rows;
}

/** CPU µs per append of one pass: first to each stream, then again to each; on a fresh copy of the log. */
async function pass(hashChain: boolean, streams: Array<{ streamId: string; revision: number }>): Promise<[number, number]> {
  const dir = mkdtempSync(join(tmpdir(), 'append-check-'));
  for (const suffix of ['', '-wal']) {
    if (existsSync(join(dataDir, `events.sqlite${suffix}`)))
      copyFileSync(join(dataDir, `events.sqlite${suffix}`), join(dir, `events.sqlite${suffix}`));
  }
  const store = openSqliteEventStore(dir, { hashChain, synchronous: 'normal' });
  const event = () => ({
    id: randomUUID(),
    type: 'BenchNoted',
    data: { n: 1 },
    metadata: { schemaVersion: 1, occurredAt: new Date().toISOString() },
  });
  const perAppend: number[] = [];
  try {
    for (const offset of [1, 2]) {
      const start = process.cpuUsage();
      for (const s of streams) await store.appendToStream(s.streamId, [event()], { expectedRevision: s.revision + offset - 1 });
      const used = process.cpuUsage(start);
      perAppend.push((used.user + used.system) / streams.length);
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return [perAppend[0], perAppend[1]];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

void (async () => {
  const streams = trainees(join(dataDir, 'events.sqlite'), streamCount);
  const events = streams.reduce((n, s) => n + s.revision + 1, 0);
  const runs: Record<'chained' | 'unchained', Array<[number, number]>> = { chained: [], unchained: [] };
  for (let i = 0; i < 5; i++) {
    runs.chained.push(await pass(true, streams));
    runs.unchained.push(await pass(false, streams));
  }
  process.stdout.write(
    `${streams.length} trainee streams, ${(events / streams.length).toFixed(1)} events each; CPU µs per append, median of 5\n`,
  );
  for (const mode of ['chained', 'unchained'] as const) {
    const first = median(runs[mode].map((r) => r[0]));
    const again = median(runs[mode].map((r) => r[1]));
    process.stdout.write(`${mode.padEnd(9)}  first append to a stream ${first.toFixed(1)}  again ${again.toFixed(1)}\n`);
  }
})();
