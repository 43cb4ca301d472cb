/**
 * The thread of `digestInThread` (./threaded-digest.ts): signs the next scheduled digest of
 * `<dataDir>/events.sqlite` (`digestSince`) on connections of its own to the log and to
 * `<dataDir>/audit.sqlite`, records it in the log and keeps its tree; posts `{signed}` (the
 * digest and where it was recorded, or null when the log had not moved) or `{error, faults}`.
 */
import { createPrivateKey } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { digestSince, LogDoesNotVerify } from '@app/audit';
import { SqliteDigestTreeStore } from '../sqlite-digest-tree';
import { openSqliteEventStore } from './sqlite-event-store';

/** What the thread is started with (`workerData.job`). */
export interface DigestJob {
  dataDir: string;
  /** The signing key, PKCS#8 PEM. */
  keyPem: string;
  by: string;
}

const job = (workerData as { job: DigestJob }).job;
const store = openSqliteEventStore(job.dataDir);
const trees = SqliteDigestTreeStore.open(job.dataDir);
digestSince({ store, recordIn: store, trees, privateKey: createPrivateKey(job.keyPem), by: job.by })
  .then((signed) => parentPort!.postMessage({ signed: signed && { digest: signed.digest, recordedAt: signed.recordedAt } }))
  .catch((error: unknown) =>
    parentPort!.postMessage({
      error: error instanceof Error ? error.message : String(error),
      faults: error instanceof LogDoesNotVerify ? error.faults : null,
    }),
  )
  .finally(() => Promise.all([trees.close(), store.close()]));
