import type Database from 'better-sqlite3';

/**
 * How a long job on the read store (a rebuild's bulk writes, the drop of an old store) shares the
 * write lock with the live projector (docs/DESIGN.md "Projection versions and blue/green
 * rebuilds"): it writes in short transactions, each sized from the time the last one took per
 * unit of work ({@link size}: about {@link TRANSACTION_MS}), and after each, when another
 * connection committed since its last look (`PRAGMA data_version`: live writes are going on), it
 * checkpoints the WAL it wrote (passive: it waits for nobody, so the live projector's commits do
 * not copy it) and pauses as long as it held the lock (at least {@link MIN_PAUSE_MS}), so a
 * waiting writer takes the lock within one short transaction. With nobody else writing it goes
 * on at once.
 */
export class SharedWriteLock {
  private readonly dataVersion: Database.Statement<[], number>;
  private seen: number;
  private msPerUnit = 0;

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

  /** Runs `write` (one transaction of `units` units of work), then yields (see {@link SharedWriteLock}). */
  async run(units: number, write: () => void): Promise<void> {
    const started = performance.now();
    write();
    const held = performance.now() - started;
    if (units > 0) this.msPerUnit = Math.max(held, 0.01) / units;
    const version = this.dataVersion.get()!;
    const contended = version !== this.seen;
    if (contended) {
      this.db.pragma('wal_checkpoint(PASSIVE)');
      this.seen = this.dataVersion.get()!;
      await new Promise((resolve) => setTimeout(resolve, Math.max(MIN_PAUSE_MS, held)));
    } else await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The time one transaction of a long job holds the write lock, ms. */
export const TRANSACTION_MS = 15;
const MIN_PAUSE_MS = 5;
const MAX_UNITS = 50_000;
