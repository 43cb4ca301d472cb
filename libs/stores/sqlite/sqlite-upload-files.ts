import { type Database, makePrivateDirectory, openPrivateDatabase } from '@app/sqlite';
import { join } from 'node:path';
import type { UploadFiles } from '@app/uploads/write';
import { UploadFilesWriter } from './upload-files-writer';
import { FORGET_WAL_WITHIN_MS, truncateWalWithin } from './wal-truncation';

/**
 * Each upload's file and row messages, sealed with its own key, kept until its purge (docs/DESIGN.md "The files under DATA_DIR"): never
 * in the log, which cannot forget; a file apart, copied by a backup after the log, so each upload in the log's copy has its parts.
 */
export const UPLOADS_FILE = 'uploads.sqlite';

/** The parts are deleted, but a reader held the WAL too long for it to be truncated. */
export class UploadPartsNotForgotten extends Error {
  constructor(uploadId: string, withinMs: number) {
    super(
      `the parts of upload ${uploadId} are deleted, but a reader held ${UPLOADS_FILE}'s WAL for ${withinMs} ms, so it could not be ` +
        'truncated: the next purge run finishes it',
    );
    this.name = 'UploadPartsNotForgotten';
  }
}

/**
 * `upload_parts` in `uploads.sqlite`: FULL sync (a part is durable before the event naming it), `secure_delete`, and the WAL truncated
 * after a delete, so no byte of a purged upload stays. A 1 MiB put holds its thread 7 to 25 ms on a shared disk, so the API writes
 * through a thread of its own (`writesInThread`) and reads here.
 */
export class SqliteUploadFiles implements UploadFiles {
  private readonly db: Database.Database;
  private readonly stmts;
  private readonly forgetWithinMs: number;
  private readonly writer: UploadFilesWriter | null;

  /** Opens (creating) the table; `forgetWithinMs`: how long a delete tries to truncate a WAL a reader holds. */
  constructor(filename: string, options: { writesInThread?: boolean; forgetWithinMs?: number } = {}) {
    this.forgetWithinMs = options.forgetWithinMs ?? FORGET_WAL_WITHIN_MS;
    this.db = openPrivateDatabase(filename);
    try {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = FULL');
      this.db.pragma('secure_delete = ON');
      this.db.exec(`
        CREATE TABLE IF NOT EXISTS upload_parts (
          upload_id TEXT NOT NULL, part TEXT NOT NULL, bytes BLOB NOT NULL, stored_at INTEGER NOT NULL,
          PRIMARY KEY (upload_id, part));
      `);
    } catch (err) {
      this.db.close();
      throw err;
    }
    this.stmts = {
      put: this.db.prepare(`INSERT OR REPLACE INTO upload_parts (upload_id, part, bytes, stored_at) VALUES (?, ?, ?, ?)`),
      get: this.db.prepare<[string, string], { bytes: Buffer }>(`SELECT bytes FROM upload_parts WHERE upload_id = ? AND part = ?`),
      parts: this.db.prepare<[string], { part: string }>(`SELECT part FROM upload_parts WHERE upload_id = ? ORDER BY part`),
      delete: this.db.prepare(`DELETE FROM upload_parts WHERE upload_id = ?`),
    };
    this.writer = options.writesInThread ? new UploadFilesWriter(filename, this.forgetWithinMs) : null;
  }

  static open(dataDir: string, options: { writesInThread?: boolean } = {}): SqliteUploadFiles {
    makePrivateDirectory(dataDir);
    return new SqliteUploadFiles(join(dataDir, UPLOADS_FILE), options);
  }

  async put(uploadId: string, part: string, bytes: Uint8Array): Promise<void> {
    if (this.writer) return this.writer.put(uploadId, part, bytes);
    this.stmts.put.run(uploadId, part, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), Date.now());
  }

  async get(uploadId: string, part: string): Promise<Uint8Array | null> {
    return this.stmts.get.get(uploadId, part)?.bytes ?? null;
  }

  async parts(uploadId: string): Promise<string[]> {
    return this.stmts.parts.all(uploadId).map((r) => r.part);
  }

  async delete(uploadId: string): Promise<number> {
    if (this.writer) return this.writer.delete(uploadId);
    const deleted = this.stmts.delete.run(uploadId).changes;
    // Truncated whether or not rows were deleted now: an earlier delete may have left its pages in the WAL.
    if (!(await truncateWalWithin(this.db, this.forgetWithinMs))) throw new UploadPartsNotForgotten(uploadId, this.forgetWithinMs);
    return deleted;
  }

  async close(): Promise<void> {
    await this.writer?.close();
    if (this.db.open) this.db.close();
  }
}
