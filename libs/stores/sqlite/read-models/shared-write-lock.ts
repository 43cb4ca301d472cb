import type { Database } from '@app/sqlite';

/**
 * How a long job on the read store (a rebuild's bulk writes, the drop of an old store) shares the
 * write lock with the live projector (docs/DESIGN.md "Projection versions and blue/green
 * rebuilds"): it writes in short transactions, each sized from the time the last one took per
 * unit of work ({@link size}: about {@link TRANSACTION_MS}), and after each, when another
 * connection committed since its last look (`PRAGMA data_version`: live writes are going on), it
 * checkpoints the WAL it wrote (passive: it waits for nobody, so the live projector's commits do
 * not copy it) and pauses as long as it held the lock (at least {@link MIN_PAUSE_MS}), so a
 * waiting writer takes the lock within one short transaction. Between any two transactions it
 * leaves the lock free for at least {@link GAP_MS}: a live writer waiting for the lock commits
 * nothing, so `data_version` cannot tell a starved writer from none, and one polling every
 * {@link POLL_MS} ({@link writeAsSoonAsFree}) needs a gap to get in.
 */
export class SharedWriteLock {
  private readonly dataVersion: Database.Statement<[], number>;
  private seen: number;
  private msPerUnit = 0;
  /** True when, at the end of the last {@link run}, another connection had committed since the run before (live writes are going on). */
  contended = false;

  constructor(
    private readonly db: Database.Database,
    /** The units of work of the first transaction. */
    private readonly firstSize = 64,
  ) {
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.seen = this.dataVersion.get()!;
  }

  /** Units of work (events, rows) for the next transaction: about {@link TRANSACTION_MS} at the last one's pace. */
  size(): number {
    if (this.msPerUnit === 0) return this.firstSize;
    return Math.max(1, Math.min(MAX_UNITS, Math.floor(TRANSACTION_MS / this.msPerUnit)));
  }

  /**
   * Runs `write` (`units` units of work) in one transaction, its write lock taken as soon as it is
   * free ({@link writeAsSoonAsFree}), then yields (see {@link SharedWriteLock}). Throws what `write`
   * threw, after rolling it back, or `SQLITE_BUSY` when the lock stays taken for 5 s.
   */
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
 * Runs `write` in one transaction, `BEGIN IMMEDIATE` taken as soon as the write lock is free (tried
 * every {@link POLL_MS} for up to `timeoutMs`, by default the connection's own busy timeout, then
 * SQLite's `SQLITE_BUSY` is thrown), and commits it, or rolls it back and throws what `write`
 * threw. Inside a transaction of the same connection it runs as a savepoint of it. The
 * connection's `busy_timeout` would wait for the lock in SQLite's own sleeps, which grow to 100 ms
 * each: beside a long job's short transactions ({@link SharedWriteLock}) such a writer wakes mostly
 * while the job holds the lock again, and waited up to 1.3 s (the bench's swap scenario). For the live projector's batches; blocks its
 * thread while it waits, as `busy_timeout` did.
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

/**
 * `BEGIN IMMEDIATE` on `db`, tried every {@link POLL_MS} until the write lock is free (see
 * {@link writeAsSoonAsFree}); throws `SQLITE_BUSY` after `timeoutMs` (default: the connection's
 * busy timeout). The caller commits or rolls back (the swap, whose transaction spans reads of the log).
 */
export function beginAsSoonAsFree(db: Database.Database, timeoutMs?: number): void {
  // `db.pragma` each time (~3 µs a call): SQLite sets `busy_timeout` while it prepares the
  // statement, so a statement prepared once would not set it again when run.
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
/** The least time a long job leaves the write lock free between two transactions, ms. */
const GAP_MS = 1;
/** How often {@link writeAsSoonAsFree} tries the write lock, ms. */
const POLL_MS = 0.25;
const SLEEPER = new Int32Array(new SharedArrayBuffer(4));
const MAX_UNITS = 50_000;
