/**
 * The thread of a `WalCheckpointer` (wal-checkpointer.ts): on its own connection to `workerData.file`, waits for
 * the commit counter (`workerData.flags[0]`) to move, waits `workerData.delayMs` more (commits
 * meanwhile share the checkpoint), and runs `PRAGMA wal_checkpoint(PASSIVE)`; ends when the stop
 * flag (`flags[1]`) is set. A failed checkpoint is posted as its message and the next one is tried
 * at the next commit.
 */
import { Database } from '@app/sqlite';
import { parentPort, workerData } from 'node:worker_threads';

const { file, flags, delayMs } = workerData as { file: string; flags: Int32Array; delayMs: number };
const db = new Database(file, { fileMustExist: true });

let seen = 0;
while (Atomics.load(flags, 1) === 0) {
  // Returns at once if a commit came since the last checkpoint began.
  Atomics.wait(flags, 0, seen);
  if (Atomics.load(flags, 1) !== 0) break;
  Atomics.wait(flags, 1, 0, delayMs);
  if (Atomics.load(flags, 1) !== 0) break;
  seen = Atomics.load(flags, 0);
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    parentPort!.postMessage(err instanceof Error ? err.message : String(err));
  }
}
db.close();
