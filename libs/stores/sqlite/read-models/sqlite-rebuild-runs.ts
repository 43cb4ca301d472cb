import type { Database } from '@app/sqlite';
import type { RebuildRun, RebuildRunStore } from '@app/runtime/rebuild';

/** Rebuild runs in `projection_rebuild_runs` (one row per projection) of the read models' SQLite file. */
export class SqliteRebuildRuns implements RebuildRunStore {
  private readonly upsert: Database.Statement<RebuildRun>;
  private readonly select: Database.Statement<[], RebuildRun>;

  constructor(db: Database.Database) {
    db.exec(`CREATE TABLE IF NOT EXISTS projection_rebuild_runs (
      projection TEXT PRIMARY KEY, store TEXT NOT NULL, state TEXT NOT NULL, events INTEGER NOT NULL,
      started_at TEXT NOT NULL, updated_at TEXT NOT NULL, seconds REAL NOT NULL)`);
    this.upsert =
      db.prepare(`INSERT OR REPLACE INTO projection_rebuild_runs (projection, store, state, events, started_at, updated_at, seconds)
      VALUES (@projection, @store, @state, @events, @started_at, @updated_at, @seconds)`);
    this.select = db.prepare(`SELECT projection, store, state, events, started_at, updated_at, seconds FROM projection_rebuild_runs`);
  }

  async record(run: RebuildRun): Promise<void> {
    this.upsert.run(run);
  }

  async all(): Promise<RebuildRun[]> {
    return this.select.all();
  }
}
