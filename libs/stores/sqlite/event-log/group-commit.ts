import type { Database } from '@app/sqlite';

type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

interface Queued<U, R> {
  unit: U;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit on one SQLite connection (docs/DESIGN.md "Group commit"): the units of work
 * submitted during one turn of the event loop run in one `BEGIN IMMEDIATE` transaction, so they
 * share one commit and its fsync; each runs in its own savepoint (a nested better-sqlite3
 * transaction), so a unit that throws rolls back alone and the others commit. Each submitter's
 * promise settles only after the shared transaction has committed (or failed): an acknowledged
 * unit is as durable as the connection's `synchronous` setting makes a commit.
 */
export class GroupCommit<U, R> {
  private queued: Queued<U, R>[] = [];
  private scheduled = false;
  private readonly group: Database.Transaction<(batch: Queued<U, R>[]) => Outcome<R>[]>;

  /**
   * `run` does one unit's writes (inside the savepoint) and returns its result; `committed` is
   * called after each commit with the results of the units that committed.
   */
  constructor(
    db: Database.Database,
    run: (unit: U) => R,
    private readonly committed: (results: R[]) => void,
  ) {
    const savepoint = db.transaction(run);
    this.group = db.transaction((batch: Queued<U, R>[]) =>
      batch.map((q): Outcome<R> => {
        try {
          return { ok: true, value: savepoint(q.unit) };
        } catch (error) {
          return { ok: false, error };
        }
      }),
    );
  }

  /** Queues `unit` for the next group commit; resolves with its result once committed, rejects with its error. */
  submit(unit: U): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queued.push({ unit, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => this.flush());
    });
  }

  /** Commits every queued unit now (in one transaction) and settles their promises. */
  flush(): void {
    this.scheduled = false;
    const batch = this.queued;
    this.queued = [];
    if (batch.length === 0) return;
    let outcomes: Outcome<R>[];
    try {
      outcomes = this.group.immediate(batch);
    } catch (error) {
      // The transaction itself failed (busy past the timeout, a failed commit): nothing of it is stored.
      for (const q of batch) q.reject(error);
      return;
    }
    this.committed(outcomes.flatMap((o) => (o.ok ? [o.value] : [])));
    outcomes.forEach((o, i) => (o.ok ? batch[i].resolve(o.value) : batch[i].reject(o.error)));
  }
}
