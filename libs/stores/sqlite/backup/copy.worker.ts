/**
 * A thread of `copyInThread` (./copy-in-thread.ts): one SQLite file copied online, on a connection
 * of its own, into a file that stands alone (a rollback journal, no WAL beside it), in one read
 * transaction, so the copy is the database as of one commit, whatever other connections and
 * processes write meanwhile; never a copy of the file's bytes, which a live WAL database tears
 * (docs/operations.md "Backups and restore"). A whole file with `VACUUM INTO`; the state file
 * without what a backup leaves out of it (`copyStateForBackup`). Posts `{done: true}` or `{error}`.
 */
import { Database } from '@app/sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import { copyStateForBackup } from './state-copy';

/**
 * What the thread is started with (`workerData.job`): the file, the target (which exists empty,
 * made 0600 by the caller), and how: `whole`, or `state` (the state file, its kept answers and
 * webhook payloads left out).
 */
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
