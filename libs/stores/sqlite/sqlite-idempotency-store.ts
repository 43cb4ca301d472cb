import { Database, makePrivateDirectory } from '@app/sqlite';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  IDEMPOTENCY_CLAIM_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
  type IdempotencyClaim,
  type IdempotencyStore,
  type StoredAnswer,
} from '@app/runtime/idempotency';
import { forgetInStateWal, openStateDatabase, STATE_FILE } from './state-file';

interface Row {
  fingerprint: string;
  status: number | null;
  content_type: string | null;
  body: string | null;
  created_at: number;
  expires_at: number;
}

/**
 * The idempotency keys on SQLite: table `idempotency_keys` of `<DATA_DIR>/state.sqlite`
 * ({@link STATE_FILE}: kept state, apart from the read models, which a rebuild or a damaged file
 * replaces), on its own connection, `synchronous=NORMAL`. A claim is one `BEGIN IMMEDIATE`
 * transaction, so concurrent claims of a key, from this process or another, are decided by the
 * primary key (scope, key). Times are epoch milliseconds.
 */
export class SqliteIdempotencyStore implements IdempotencyStore {
  private readonly db: Database.Database;
  private readonly stmts;

  /** Opens (creating when needed) the table in the SQLite file `filename` (`openStateDatabase`). */
  constructor(filename: string) {
    this.db = openStateDatabase(filename, 'NORMAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS idempotency_keys (
        scope TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, claim TEXT NOT NULL,
        status INTEGER, content_type TEXT, body TEXT, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL,
        PRIMARY KEY (scope, key));
      CREATE INDEX IF NOT EXISTS idempotency_keys_expires_at ON idempotency_keys (expires_at);
    `);
    this.stmts = {
      get: this.db.prepare<[string, string], Row>(
        `SELECT fingerprint, status, content_type, body, created_at, expires_at FROM idempotency_keys WHERE scope = ? AND key = ?`,
      ),
      remove: this.db.prepare(`DELETE FROM idempotency_keys WHERE scope = ? AND key = ?`),
      insert: this.db.prepare(
        `INSERT INTO idempotency_keys (scope, key, fingerprint, claim, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
      ),
      complete: this.db.prepare(
        `UPDATE idempotency_keys SET status = ?, content_type = ?, body = ? WHERE scope = ? AND key = ? AND claim = ?`,
      ),
      release: this.db.prepare(`DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND claim = ? AND status IS NULL`),
      prune: this.db.prepare(`DELETE FROM idempotency_keys WHERE expires_at <= ?`),
      forget: this.db.prepare(`DELETE FROM idempotency_keys WHERE instr(body, ?) > 0`),
    };
  }

  /** Opens the table in `<dataDir>/state.sqlite`, creating the directory when needed. */
  static open(dataDir: string): SqliteIdempotencyStore {
    makePrivateDirectory(dataDir);
    return new SqliteIdempotencyStore(join(dataDir, STATE_FILE));
  }

  async claim(scope: string, key: string, fingerprint: string, now: Date): Promise<IdempotencyClaim> {
    const t = now.getTime();
    return this.db
      .transaction((): IdempotencyClaim => {
        const row = this.stmts.get.get(scope, key);
        if (row && !isFree(row, t)) {
          if (row.fingerprint !== fingerprint) return { outcome: 'mismatch' };
          if (row.status === null) return { outcome: 'in-progress' };
          return { outcome: 'replay', answer: { status: row.status, contentType: row.content_type ?? '', body: row.body ?? '' } };
        }
        if (row) this.stmts.remove.run(scope, key);
        const claim = randomUUID();
        this.stmts.insert.run(scope, key, fingerprint, claim, t, t + IDEMPOTENCY_TTL_MS);
        return { outcome: 'claimed', claim };
      })
      .immediate();
  }

  async complete(scope: string, key: string, claim: string, answer: StoredAnswer): Promise<void> {
    this.stmts.complete.run(answer.status, answer.contentType, answer.body, scope, key, claim);
  }

  async release(scope: string, key: string, claim: string): Promise<void> {
    this.stmts.release.run(scope, key, claim);
  }

  async prune(now: Date): Promise<number> {
    return this.stmts.prune.run(now.getTime()).changes;
  }

  /**
   * Deletes every kept answer that holds `text` (an erased trainee's id), zeroed in the file, then
   * truncates the WAL so no copy stays there either; throws `StateNotForgotten` when a reader held
   * the WAL past the limit (the answers are deleted; the erasure run again truncates it).
   */
  async forget(text: string): Promise<number> {
    const forgotten = this.stmts.forget.run(text).changes;
    await forgetInStateWal(this.db, text, 'the kept answers');
    return forgotten;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** An entry that no longer holds its key: expired, or a claim without an answer past its lease. */
function isFree(row: Row, now: number): boolean {
  return row.expires_at <= now || (row.status === null && row.created_at + IDEMPOTENCY_CLAIM_LEASE_MS <= now);
}
