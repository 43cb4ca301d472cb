import { type Database, openPrivateDatabase } from '@app/sqlite';
import { ErasureUnfinished } from '@app/personal-data';
import { FORGET_WAL_WITHIN_MS, truncateWalWithin } from './wal-truncation';

/**
 * The file of the embedded state the event log cannot make again, in the data directory
 * (docs/DESIGN.md "The files under DATA_DIR"): the idempotency keys and their kept
 * answers, the webhook outbox (endpoints, deliveries, the dispatcher's position) and the registry
 * process manager's position. Apart from `read-models.sqlite`, which can always be rebuilt from the
 * log and is moved aside when found damaged.
 */
export const STATE_FILE = 'state.sqlite';

/**
 * A connection to the state file `filename` (created when missing, 0600): WAL, the process's
 * lock wait (`lockWait`), `synchronous` as the caller's writes need (FULL: once stored, survives a power loss;
 * NORMAL: survives a crash of the process), and `secure_delete`, so what a delete frees (a
 * forgotten answer, a blanked payload) is zeroed in the file (docs/DESIGN.md "Personal data"). The
 * WAL is checkpointed by SQLite's own threshold (1,000 pages, 4 MiB), in the commit that passes it:
 * no checkpointer thread serves this file, and its writes are small. Throws what better-sqlite3
 * throws (the connection closed).
 */
export function openStateDatabase(filename: string, synchronous: 'NORMAL' | 'FULL'): Database.Database {
  const db = openPrivateDatabase(filename);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${synchronous}`);
    db.pragma('secure_delete = ON');
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/**
 * What an erasure deleted from the state file is deleted, but a copy may still be in its WAL: a
 * reader held it, so it could not be truncated in time (docs/DESIGN.md "Personal data").
 */
export class StateNotForgotten extends ErasureUnfinished {
  constructor(traineeId: string, what: string, withinMs: number) {
    super(
      traineeId,
      `${what} of trainee ${traineeId} are forgotten, but a reader held ${STATE_FILE}'s WAL for ${withinMs} ms, so it could not ` +
        'be truncated: run the erasure again to finish forgetting it',
    );
  }
}

/**
 * After an erasure's deletes on `db`: the WAL checkpointed into the file and truncated, so the
 * pages the deletes replaced are gone from both (`truncateWalWithin`, retried for up to
 * `withinMs`). Throws {@link StateNotForgotten} when a reader held the WAL that long.
 */
export async function forgetInStateWal(
  db: Database.Database,
  traineeId: string,
  what: string,
  withinMs = FORGET_WAL_WITHIN_MS,
): Promise<void> {
  if (!(await truncateWalWithin(db, withinMs))) throw new StateNotForgotten(traineeId, what, withinMs);
}
