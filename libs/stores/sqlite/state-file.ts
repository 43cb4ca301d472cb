import { type Database, openPrivateDatabase } from '@app/sqlite';
import { ErasureUnfinished } from '@app/personal-data';
import { FORGET_WAL_WITHIN_MS, truncateWalWithin } from './wal-truncation';

/**
 * The embedded state the log cannot make again (docs/DESIGN.md "The files under DATA_DIR"): idempotency keys and answers, the webhook
 * outbox, the registry process manager's position; apart from `read-models.sqlite`, which is always rebuilt from the log.
 */
export const STATE_FILE = 'state.sqlite';

/**
 * WAL; `synchronous` as the caller's writes need (FULL survives power loss, NORMAL a crash); `secure_delete`, so what a delete frees is
 * zeroed (docs/DESIGN.md "Personal data"). Checkpointed at SQLite's own threshold (1,000 pages): its writes are small, no checkpointer.
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

/** Erased rows are deleted, but a copy may still be in the WAL a reader held past the wait (docs/DESIGN.md "Personal data"). */
export class StateNotForgotten extends ErasureUnfinished {
  constructor(traineeId: string, what: string, withinMs: number) {
    super(
      traineeId,
      `${what} of trainee ${traineeId} are forgotten, but a reader held ${STATE_FILE}'s WAL for ${withinMs} ms, so it could not ` +
        'be truncated: run the erasure again to finish forgetting it',
    );
  }
}

/** The WAL checkpointed and truncated after an erasure's deletes, retried up to `withinMs`; else {@link StateNotForgotten}. */
export async function forgetInStateWal(
  db: Database.Database,
  traineeId: string,
  what: string,
  withinMs = FORGET_WAL_WITHIN_MS,
): Promise<void> {
  if (!(await truncateWalWithin(db, withinMs))) throw new StateNotForgotten(traineeId, what, withinMs);
}
