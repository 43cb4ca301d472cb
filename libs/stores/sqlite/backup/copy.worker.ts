/**
 * A thread of `copyInThread`: one file copied online into a standalone file in one read transaction, so as of one commit; never its
 * bytes, which a live WAL database tears (docs/operations.md "Backups and restore"). Posts `{done: true}` or `{error}`.
 */
import { Database } from '@app/sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import { copyStateForBackup } from './state-copy';

/** The target exists empty, 0600; `state`: without the kept answers and webhook payloads. */
export interface CopyJob {
  source: string;
  target: string;
  how: 'whole' | 'state';
}

const job = (workerData as { job: CopyJob }).job;
try {
  if (job.how === 'state') copyStateForBackup(job.source, job.target);
  else {
    const db = new Database(job.source, { readonly: true, fileMustExist: true });
    try {
      db.prepare('VACUUM INTO ?').run(job.target);
    } finally {
      db.close();
    }
  }
  parentPort!.postMessage({ done: true });
} catch (error) {
  parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
