import type { Database } from '@app/sqlite';

/**
 * How a long job on the read store shares the write lock with the live projector (docs/DESIGN.md "Sharing the write lock"): short
 * transactions of about {@link TRANSACTION_MS}; after one, when another connection committed meanwhile (`data_version`), a passive
 * checkpoint of its WAL and a pause as long as it held the lock; between any two at least {@link GAP_MS} free, since a starved writer
 * commits nothing and `data_version` cannot tell it from none. A job given `quietMs` writes transactions that long while no other
 * connection committed during its last one: a writer arriving then waits at most one of them, gets the lock in the gap after it, and
 * its commit brings the job back to short transactions.
 */
export class SharedWriteLock {
  private readonly dataVersion: Database.Statement<[], number>;
  private seen: number;
  private msPerUnit = 0;
  private readonly quietMs: number;
  /** Another connection had committed during the last {@link run}: live writes are going on. */
  contended = false;

  constructor(
    private readonly db: Database.Database,
    /** The units of work of the first transaction. */
    private readonly firstSize = 64,
    /** Ms of a transaction while no other connection committed during the last one; default {@link TRANSACTION_MS}. */
    quietMs = TRANSACTION_MS,
  ) {
    this.quietMs = quietMs;
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.seen = this.dataVersion.get()!;
  }

  /** About {@link TRANSACTION_MS} (quiet: the constructor's `quietMs`) at the last one's pace. */
  size(): number {
    if (this.msPerUnit === 0) return this.firstSize;
    return Math.max(1, Math.min(MAX_UNITS, Math.floor((this.contended ? TRANSACTION_MS : this.quietMs) / this.msPerUnit)));
  }

  /** Rolls back and throws what `write` threw, or `SQLITE_BUSY` when the lock stays taken past the busy timeout. */
  async run(units: number, write: () => void): Promise<void> {
    let held = 0;
    writeAsSoonAsFree(this.db, () => {
      const started = performance.now();
      write();
      held = performance.now() - started;
    });
    if (units > 0) this.msPerUnit = Math.max(held, 0.01) / units;
    const version = this.dataVersion.get()!;
    const contended = (this.contended = version !== this.seen);
    if (contended) {
      this.db.pragma('wal_checkpoint(PASSIVE)');
      this.seen = this.dataVersion.get()!;
      await new Promise((resolve) => setTimeout(resolve, Math.max(MIN_PAUSE_MS, held)));
    } else await new Promise((resolve) => setTimeout(resolve, GAP_MS));
  }
}

/**
 * Runs `write` in one transaction, `BEGIN IMMEDIATE` tried every {@link POLL_MS} up to `timeoutMs` (default the busy timeout, then
 * `SQLITE_BUSY`); a savepoint inside a transaction of the same connection. `busy_timeout`'s own sleeps grow to 100 ms, and beside a
 * long job's short transactions woke mostly while it held the lock again (waits of 1.3 s in the bench's swap). Blocks the thread.
 */
export function writeAsSoonAsFree<T>(db: Database.Database, write: () => T, timeoutMs?: number): T {
  // Within a transaction of this connection (a swap applying what the log gained), it holds the lock.
  if (db.inTransaction) return db.transaction(write)();
  beginAsSoonAsFree(db, timeoutMs);
  try {
    const result = write();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/** The caller commits or rolls back (the swap, whose transaction spans reads of the log). */
export function beginAsSoonAsFree(db: Database.Database, timeoutMs?: number): void {
  // `db.pragma` each time (~3 µs): SQLite sets `busy_timeout` when it prepares the statement, not when a prepared one runs.
  const busyTimeout = db.pragma('busy_timeout', { simple: true }) as number;
  const deadline = performance.now() + (timeoutMs ?? busyTimeout);
  db.pragma('busy_timeout = 0');
  try {
    for (;;) {
      try {
        db.exec('BEGIN IMMEDIATE');
        return;
      } catch (error) {
        if (!isBusy(error) || performance.now() >= deadline) throw error;
        Atomics.wait(SLEEPER, 0, 0, POLL_MS);
      }
    }
  } finally {
    db.pragma(`busy_timeout = ${busyTimeout}`);
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** The time one transaction of a long job holds the write lock, ms. */
export const TRANSACTION_MS = 15;
const MIN_PAUSE_MS = 5;
/** The least lock-free time between two transactions of a long job, ms. */
const GAP_MS = 1;
const POLL_MS = 0.25;
const SLEEPER = new Int32Array(new SharedArrayBuffer(4));
const MAX_UNITS = 50_000;
