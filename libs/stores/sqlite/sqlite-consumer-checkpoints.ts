import { type Database, makePrivateDirectory } from '@app/sqlite';
import { join } from 'node:path';
import { logPosition, type LogPosition } from '@app/event-sourcing';
import { openStateDatabase, STATE_FILE } from './state-file';

export const CONSUMER_CHECKPOINTS_TABLE = 'consumer_checkpoints';

/**
 * Positions of the log's consumers other than projections (the registry process manager's) in `state.sqlite`: not in the read store, as
 * a rebuilt one must not send the manager back to the log's start (it would ask the registry again for every trainee). Only forward,
 * but for a reset.
 */
export class SqliteConsumerCheckpoints {
  private readonly db: Database.Database;
  private readonly read: Database.Statement<[string], number>;
  private readonly write: Database.Statement<[string, number, string]>;

  /** Opens (creating) the table in `filename`. */
  constructor(filename: string) {
    this.db = openStateDatabase(filename, 'NORMAL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${CONSUMER_CHECKPOINTS_TABLE} (
      name TEXT PRIMARY KEY, position INTEGER NOT NULL, updated_at TEXT NOT NULL)`);
    this.read = this.db.prepare<[string], number>(`SELECT position FROM ${CONSUMER_CHECKPOINTS_TABLE} WHERE name = ?`).pluck();
    this.write = this.db.prepare(`
      INSERT INTO ${CONSUMER_CHECKPOINTS_TABLE} (name, position, updated_at) VALUES (?, ?, ?)
      ON CONFLICT (name) DO UPDATE SET position = MAX(position, excluded.position), updated_at = excluded.updated_at`);
  }

  static open(dataDir: string): SqliteConsumerCheckpoints {
    makePrivateDirectory(dataDir);
    return new SqliteConsumerCheckpoints(join(dataDir, STATE_FILE));
  }

  /** `LOG_START` when none. */
  async readCheckpoint(name: string): Promise<LogPosition> {
    return logPosition(this.read.get(name) ?? 0);
  }

  /** Unless a later one is stored already. */
  async writeCheckpoint(name: string, position: LogPosition): Promise<void> {
    this.write.run(name, position, new Date().toISOString());
  }

  /** Back as well as forward (`CheckpointStore.resetCheckpoint` of the registry process manager). */
  async resetCheckpoint(name: string, position: LogPosition): Promise<void> {
    this.db
      .prepare<[string, number, string]>(
        `INSERT INTO ${CONSUMER_CHECKPOINTS_TABLE} (name, position, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET position = excluded.position, updated_at = excluded.updated_at`,
      )
      .run(name, position, new Date().toISOString());
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
