import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { ChainFault } from '@app/event-sourcing';
import type { LogVerification, StreamHead, StreamRange, VerifyLogOptions } from '@app/runtime/audit';
import { startWorker } from '../start-worker';
import type { VerifyJob } from './verify.worker';

/** What a verify thread posts (see verify.worker.ts). */
type FromVerifier =
  { faults: ChainFault[] } | { heads: StreamHead[] } | { events: number } | { done: true; totals: LogVerification } | { error: string };

/**
 * `verifyLog` of the embedded log (`<dataDir>/events.sqlite`) on two threads, each with a
 * connection of its own, over the two halves of the stream ids (split at the stream of the log's
 * middle event): the check is bound by reading rows and hashing them, one thread tops out near
 * 160,000 events a second (bench/results/HISTORY.md "Issue 28"). The same options and answer as
 * `verifyLog`; the faults and heads of the first half come first. Rejects with a thread's error.
 */
export async function verifyInThreads(dataDir: string, options: Omit<VerifyLogOptions, 'range'> = {}): Promise<LogVerification> {
  const ranges = splitStreams(join(dataDir, 'events.sqlite'));
  const progress = ranges.map(() => 0);
  const later: { faults: ChainFault[]; heads: StreamHead[] }[] = ranges.map(() => ({ faults: [], heads: [] }));
  const digestHeads = options.digest ? [...options.digest.heads] : null;
  const runs = ranges.map(
    (range, i) =>
      new Promise<LogVerification>((resolve, reject) => {
        const inRange = (id: string) => (range.after === null || id > range.after) && (range.before === null || id < range.before);
        const job: VerifyJob = {
          dataDir,
          range,
          toPosition: options.toPosition ?? null,
          digest:
            options.digest && digestHeads ? { position: options.digest.position, heads: digestHeads.filter(([id]) => inRange(id)) } : null,
          heads: options.onStream !== undefined,
        };
        const worker = startWorker(__dirname, 'verify', { job });
        // The first half's findings are told as they come; the second's once the first is done, so they stay in stream order.
        const tell = (faults: ChainFault[], heads: StreamHead[]) => {
          for (const f of faults) options.onFault?.(f);
          for (const h of heads) options.onStream?.(h);
        };
        worker.on('message', (m: FromVerifier) => {
          if ('faults' in m) {
            if (i === 0) tell(m.faults, []);
            else later[i].faults.push(...m.faults);
          } else if ('heads' in m) {
            if (i === 0) tell([], m.heads);
            else later[i].heads.push(...m.heads);
          } else if ('events' in m) {
            progress[i] = m.events;
            options.onProgress?.(progress.reduce((a, b) => a + b, 0));
          } else if ('done' in m) resolve(m.totals);
          else reject(new Error(m.error));
        });
        worker.on('error', reject);
        worker.on('exit', (code) => (code === 0 ? undefined : reject(new Error(`a verify thread stopped with code ${code}`))));
      }),
  );
  const totals = await Promise.all(runs);
  for (let i = 1; i < later.length; i++) {
    for (const f of later[i].faults) options.onFault?.(f);
    for (const h of later[i].heads) options.onStream?.(h);
  }
  return totals.reduce((a, t) => ({ events: a.events + t.events, streams: a.streams + t.streams, faults: a.faults + t.faults }), {
    events: 0,
    streams: 0,
    faults: 0,
  });
}

/** The log's stream ids in two ranges, split at the stream of the middle event (one range for an empty log). */
function splitStreams(file: string): StreamRange[] {
  const db = new Database(file, { readonly: true });
  try {
    const head = (db.prepare('SELECT MAX(position) AS n FROM events').get() as { n: number | null }).n ?? 0;
    const middle = db
      .prepare('SELECT stream_id FROM events ORDER BY stream_id LIMIT 1 OFFSET ?')
      .pluck()
      .get(Math.floor(head / 2)) as string | undefined;
    if (middle === undefined) return [{ after: null, before: null }];
    // The first half ends before `middle`; the second starts at it (after the last id below it).
    const below = db.prepare('SELECT MAX(stream_id) FROM events WHERE stream_id < ?').pluck().get(middle) as string | null;
    return [
      { after: null, before: middle },
      { after: below, before: null },
    ];
  } finally {
    db.close();
  }
}
