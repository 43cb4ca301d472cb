/**
 * A thread of `verifyInThreads` (./threaded-verify.ts): scans one range of positions of
 * `<dataDir>/events.sqlite` in position order (a sequential read of the table) on a read-only
 * connection of its own, through a `ChainScan`, and posts `{events}` as it goes, then
 * `{done, result}` (the scan's result), or `{error}`.
 */
import { Database } from '@app/sqlite';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { ChainScan, type SignedHead } from '@app/audit';
import type { LogPosition } from '@app/event-sourcing';
import { STORED_COLUMNS, storedRowText, type StoredRow } from './sqlite-rows';

/** What the thread is started with (`workerData.job`): the positions after `after` up to `upTo`, and a digest to hold them to. */
export interface VerifyJob {
  dataDir: string;
  after: number;
  upTo: number;
  digest: { position: LogPosition; heads: [string, SignedHead][] } | null;
}

/** Events between two progress messages. */
const PROGRESS_EVERY = 10_000;

const job = (workerData as { job: VerifyJob }).job;
try {
  const db = new Database(join(job.dataDir, 'events.sqlite'), { readonly: true });
  try {
    const scan = new ChainScan(job.digest ? { position: job.digest.position, heads: new Map(job.digest.heads) } : null);
    const rows = db
      .prepare<[number, number], StoredRow>(`SELECT ${STORED_COLUMNS} FROM events WHERE position > ? AND position <= ? ORDER BY position`)
      .raw(true);
    let n = 0;
    for (const r of rows.iterate(job.after, job.upTo)) {
      scan.add(storedRowText(r));
      if (++n % PROGRESS_EVERY === 0) parentPort!.postMessage({ events: n });
    }
    parentPort!.postMessage({ done: true, result: scan.result() });
  } finally {
    db.close();
  }
} catch (error) {
  parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
