import type { Database } from '@app/sqlite';
import type { ReadStoredStreamsOptions, StoredEventText } from '@app/event-sourcing';
import { STORED_COLUMNS, storedRowText as textOf, type StoredRow as Row } from './sqlite-rows';

/**
 * Whole streams of every category as stored, in stream-id order (port `readStoredStreams`), on the `(stream_id, revision)` index: up to
 * `maxCount` rows after the cursor, the last stream dropped unless it is the only one, whose rest is then read; one read transaction.
 * The stored texts, no JSON parse: the chain check hashes them.
 */
export class StoredStreams {
  private readonly read: Database.Transaction<(afterStream: string, beforeStream: string | null, maxCount: number) => StoredEventText[]>;
  private readonly range: Database.Statement<[string, number, number], Row>;

  constructor(db: Database.Database) {
    const columns = `SELECT ${STORED_COLUMNS} FROM events`;
    const page = db.prepare<[string, number], Row>(`${columns} WHERE stream_id > ? ORDER BY stream_id, revision LIMIT ?`).raw(true);
    const pageBefore = db
      .prepare<[string, string, number], Row>(`${columns} WHERE stream_id > ? AND stream_id < ? ORDER BY stream_id, revision LIMIT ?`)
      .raw(true);
    const rest = db.prepare<[string, number], Row>(`${columns} WHERE stream_id = ? AND revision > ? ORDER BY revision`).raw(true);
    this.range = db
      .prepare<[string, number, number], Row>(`${columns} WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?`)
      .raw(true);
    this.read = db.transaction((afterStream: string, beforeStream: string | null, maxCount: number) => {
      const rows = beforeStream === null ? page.all(afterStream, maxCount) : pageBefore.all(afterStream, beforeStream, maxCount);
      if (rows.length < maxCount) return rows.map(textOf);
      const last = rows[rows.length - 1];
      const firstOfLast = rows.findIndex((r) => r[0] === last[0]);
      if (firstOfLast > 0) return rows.slice(0, firstOfLast).map(textOf);
      return [...rows, ...rest.all(last[0], last[1])].map(textOf);
    });
  }

  /** RangeError for a `maxCount` below 1. */
  streams(options: ReadStoredStreamsOptions): StoredEventText[] {
    if (!Number.isInteger(options.maxCount) || options.maxCount < 1) {
      throw new RangeError(`maxCount must be an integer ≥ 1, got ${options.maxCount}`);
    }
    return this.read(options.afterStream ?? '', options.beforeStream ?? null, options.maxCount);
  }

  /** Port `readStoredStream`: `maxCount` negative for no bound; one indexed range read. */
  stream(streamId: string, fromRevision: number, maxCount: number): StoredEventText[] {
    return this.range.all(streamId, fromRevision, maxCount).map(textOf);
  }
}
