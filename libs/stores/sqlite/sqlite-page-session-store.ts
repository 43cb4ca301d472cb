import { Database, makePrivateDirectory } from '@app/sqlite';
import { join } from 'node:path';
import type { PageSessionBounds, PageSessionPool, PageSessionStore, StoredPageSession } from '@app/runtime/page-sessions';
import { openStateDatabase, STATE_FILE } from './state-file';

interface Row {
  key: string;
  pool: PageSessionPool;
  owner: string;
  data: string;
  started_at: number;
  expires_at: number;
}

/**
 * The uploads page's sessions on SQLite: table `page_sessions` of `<DATA_DIR>/state.sqlite` ({@link STATE_FILE}), on its own
 * connection, `synchronous=NORMAL` (a crash loses at most the last sign-ins, never the file). Each `add` is one `BEGIN IMMEDIATE`
 * transaction, so the bounds hold across every process on the file. Oldest: the lowest rowid, which only grows while rows are held.
 * Times are epoch milliseconds. A backup leaves the rows out (`copyStateForBackup`).
 */
export class SqlitePageSessionStore implements PageSessionStore {
  private readonly db: Database.Database;
  private readonly stmts;

  /** Opens (creating when needed) the table in the SQLite file `filename` (`openStateDatabase`). */
  constructor(filename: string) {
    this.db = openStateDatabase(filename, 'NORMAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS page_sessions (
        key TEXT NOT NULL PRIMARY KEY, pool TEXT NOT NULL, owner TEXT NOT NULL, data TEXT NOT NULL,
        started_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
      CREATE INDEX IF NOT EXISTS page_sessions_owner ON page_sessions (pool, owner);
      CREATE INDEX IF NOT EXISTS page_sessions_expires_at ON page_sessions (expires_at);
    `);
    this.stmts = {
      find: this.db.prepare<[string, number], Row>(
        `SELECT key, pool, owner, data, started_at, expires_at FROM page_sessions WHERE key = ? AND expires_at > ?`,
      ),
      ownCount: this.db.prepare<[string, string], number>(`SELECT COUNT(*) FROM page_sessions WHERE pool = ? AND owner = ?`).pluck(),
      ownOldest: this.db.prepare(
        `DELETE FROM page_sessions WHERE rowid = (SELECT MIN(rowid) FROM page_sessions WHERE pool = ? AND owner = ?)`,
      ),
      poolCount: this.db.prepare<[string], number>(`SELECT COUNT(*) FROM page_sessions WHERE pool = ?`).pluck(),
      poolExpired: this.db.prepare(`DELETE FROM page_sessions WHERE pool = ? AND expires_at <= ?`),
      largestOwner: this.db
        .prepare<[string, string], string>(
          `SELECT owner FROM page_sessions WHERE pool = ? GROUP BY owner ORDER BY COUNT(*) DESC, owner = ? DESC, MIN(rowid) LIMIT 1`,
        )
        .pluck(),
      insert: this.db.prepare(
        `INSERT INTO page_sessions (key, pool, owner, data, started_at, expires_at) VALUES (@key, @pool, @owner, @data, @startedAt, @expiresAt)`,
      ),
      update: this.db.prepare(`UPDATE page_sessions SET data = ?, expires_at = ? WHERE key = ?`),
      remove: this.db.prepare(`DELETE FROM page_sessions WHERE key = ?`),
      expired: this.db.prepare(`DELETE FROM page_sessions WHERE expires_at <= ?`),
    };
  }

  /** Opens the table in `<dataDir>/state.sqlite`, creating the directory when needed. */
  static open(dataDir: string): SqlitePageSessionStore {
    makePrivateDirectory(dataDir);
    return new SqlitePageSessionStore(join(dataDir, STATE_FILE));
  }

  async add(session: StoredPageSession, bounds: PageSessionBounds, nowMs: number): Promise<void> {
    const { pool, owner } = session;
    this.db
      .transaction(() => {
        if (this.stmts.ownCount.get(pool, owner)! >= bounds.perOwner) {
          this.stmts.ownOldest.run(pool, owner);
        } else if (this.stmts.poolCount.get(pool)! >= bounds.all && this.stmts.poolExpired.run(pool, nowMs).changes === 0) {
          this.stmts.ownOldest.run(pool, this.stmts.largestOwner.get(pool, owner)!);
        }
        this.stmts.insert.run(session);
      })
      .immediate();
  }

  async find(key: string, nowMs: number): Promise<StoredPageSession | null> {
    const row = this.stmts.find.get(key, nowMs);
    if (!row) return null;
    return { key: row.key, pool: row.pool, owner: row.owner, data: row.data, startedAt: row.started_at, expiresAt: row.expires_at };
  }

  async update(key: string, data: string, expiresAt: number): Promise<boolean> {
    return this.stmts.update.run(data, expiresAt, key).changes > 0;
  }

  async remove(key: string): Promise<boolean> {
    return this.stmts.remove.run(key).changes > 0;
  }

  async removeExpired(nowMs: number): Promise<number> {
    return this.stmts.expired.run(nowMs).changes;
  }

  async count(pool: PageSessionPool): Promise<number> {
    return this.stmts.poolCount.get(pool)!;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
