/**
 * A thread of `verifyInThreads` (./threaded-verify.ts): checks the chains of one range of stream
 * ids of `<dataDir>/events.sqlite` on a connection of its own and posts what it finds to the
 * parent: `{faults}` and `{heads}` in batches, `{events}` as it goes, then `{done, totals}`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ChainFault } from '@app/event-sourcing';
import { verifyLog, type SignedHead, type StreamHead, type StreamRange } from '@app/runtime/audit';
import { openSqliteEventStore } from './sqlite-event-store';

/** What the thread is started with (`workerData.job`). */
export interface VerifyJob {
  dataDir: string;
  range: StreamRange;
  toPosition: number | null;
  digest: { position: number; heads: [string, SignedHead][] } | null;
  /** Whether to post every stream's head (for a digest). */
  heads: boolean;
}

const job = (workerData as { job: VerifyJob }).job;
const store = openSqliteEventStore(job.dataDir);
const faults: ChainFault[] = [];
const heads: StreamHead[] = [];
const flush = () => {
  if (faults.length > 0) parentPort!.postMessage({ faults: faults.splice(0) });
  if (heads.length > 0) parentPort!.postMessage({ heads: heads.splice(0) });
};
verifyLog(store, {
  range: job.range,
  toPosition: job.toPosition ?? undefined,
  digest: job.digest ? { position: job.digest.position, heads: new Map(job.digest.heads) } : undefined,
  onFault: (f) => faults.push(f),
  onStream: job.heads ? (h) => heads.push(h) : undefined,
  onProgress: (events) => {
    flush();
    parentPort!.postMessage({ events });
  },
})
  .then((totals) => {
    flush();
    parentPort!.postMessage({ done: true, totals });
  })
  .catch((error: unknown) => parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) }))
  .finally(() => void store.close());
