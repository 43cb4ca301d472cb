import type { Database } from '@app/sqlite';

type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

interface Queued<U, R> {
  unit: U;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit (docs/DESIGN.md "Group commit"): one turn's units in one `BEGIN IMMEDIATE`, one fsync, each in its own savepoint so a
 * unit that throws rolls back alone. A promise settles only after the shared commit: an acknowledged unit is as durable as a commit.
 */
export class GroupCommit<U, R> {
  private queued: Queued<U, R>[] = [];
  private scheduled = false;
  private readonly group: Database.Transaction<(batch: Queued<U, R>[]) => Outcome<R>[]>;

  /** `run` does one unit's writes in its savepoint; `committed` hears the results of the units of each commit. */
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

  /** Resolves with its result once committed, or rejects with its error. */
  submit(unit: U): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queued.push({ unit, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => this.flush());
    });
  }

  /** Commits every queued unit now, in one transaction. */
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
