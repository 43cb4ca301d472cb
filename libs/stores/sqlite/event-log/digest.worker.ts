/**
 * The thread of `digestInThread`: signs, records and keeps the next scheduled digest on connections of its own; posts `{signed}`
 * (null when the log had not moved) or `{error, faults}`.
 */
import { createPrivateKey } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { digestSince, LogDoesNotVerify } from '@app/audit';
import { SqliteDigestTreeStore } from '../sqlite-digest-tree';
import { openSqliteEventStore } from './sqlite-event-store';

export interface DigestJob {
  dataDir: string;
  /** PKCS#8 PEM. */
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
