import { type Database, makePrivateDirectory } from '@app/sqlite';
import { join } from 'node:path';
import { logPosition, type LogPosition } from '@app/event-sourcing';
import { openStateDatabase, STATE_FILE } from './state-file';

/** The table of the consumers' positions in the state file. */
export const CONSUMER_CHECKPOINTS_TABLE = 'consumer_checkpoints';

/**
 * The positions of the event log's consumers other than the projections (the registry process
 * manager's, `REGISTRY_PM_CHECKPOINT`) on SQLite: table `consumer_checkpoints` of
 * `<DATA_DIR>/state.sqlite` (name, position, updated_at as ISO 8601 UTC), on its own connection,
 * `synchronous=NORMAL`. Not in the read store: a rebuilt or replaced read store must not send the
 * registry process manager back to the log's start (it would ask the registry again for every
 * trainee it passed). A stored position only moves forward.
 */
export class SqliteConsumerCheckpoints {
  private readonly db: Database.Database;
  private readonly read: Database.Statement<[string], number>;
  private readonly write: Database.Statement<[string, number, string]>;

  /** Opens (creating when needed) the table in the SQLite file `filename` (`openStateDatabase`). */
  constructor(filename: string) {
    this.db = openStateDatabase(filename, 'NORMAL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${CONSUMER_CHECKPOINTS_TABLE} (
      name TEXT PRIMARY KEY, position INTEGER NOT NULL, updated_at TEXT NOT NULL)`);
    this.read = this.db.prepare<[string], number>(`SELECT position FROM ${CONSUMER_CHECKPOINTS_TABLE} WHERE name = ?`).pluck();
    this.write = this.db.prepare(`
      INSERT INTO ${CONSUMER_CHECKPOINTS_TABLE} (name, position, updated_at) VALUES (?, ?, ?)
      ON CONFLICT (name) DO UPDATE SET position = MAX(position, excluded.position), updated_at = excluded.updated_at`);
  }

  /** Opens the table in `<dataDir>/state.sqlite`, creating the directory when needed. */
  static open(dataDir: string): SqliteConsumerCheckpoints {
    makePrivateDirectory(dataDir);
    return new SqliteConsumerCheckpoints(join(dataDir, STATE_FILE));
  }

  /** The stored position of consumer `name`, `LOG_START` when none. */
  async readCheckpoint(name: string): Promise<LogPosition> {
    return logPosition(this.read.get(name) ?? 0);
  }

  /** Stores `position` for `name` unless a later one is stored already. */
  async writeCheckpoint(name: string, position: LogPosition): Promise<void> {
    this.write.run(name, position, new Date().toISOString());
  }

  /** Closes the connection (again: nothing). */
  close(): void {
    if (this.db.open) this.db.close();
  }
}
