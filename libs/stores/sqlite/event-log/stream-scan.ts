import type Database from 'better-sqlite3';
import type { ReadStreamsOptions, RecordedEvent } from '@app/event-sourcing';
import { assertNonNegativeInteger, rawToRecordedEvent, type RawEventRow } from './sqlite-rows';

const COLUMNS = 'position, id, stream_id, revision, type, data, metadata';

/**
 * Reads whole streams of one category in stream-id order (port: `EventStore.readStreamsByPrefix`)
 * on the index that `UNIQUE (stream_id, revision)` creates, so no sort is needed: the streams whose
 * id lies in `[prefix, prefix with its last character raised by one)` (binary collation), after the
 * cursor, with position ≤ the snapshot's. Both reads of one call run in one read transaction.
 *
 * The first read binds exactly one lower bound on `stream_id`: the prefix, or the cursor where it
 * lies beyond the prefix. Given two (`stream_id > cursor AND stream_id >= prefix`), SQLite takes
 * one of them as the start of the index range, and with an empty cursor it walked every stream
 * below the prefix: a cost per call that grew with the whole log.
 */
export class StreamScan {
  /** The first page from the prefix's first stream: `[prefix, upper)`. */
  private readonly fromPrefix: Database.Statement<[string, string, number, number], RawEventRow>;
  /** The first page after a cursor that lies at or beyond the prefix: `(cursor, upper)`. */
  private readonly afterCursor: Database.Statement<[string, string, number, number], RawEventRow>;
  private readonly rest: Database.Statement<[string, number, number], RawEventRow>;
  private readonly read: Database.Transaction<(options: ReadStreamsOptions) => RawEventRow[]>;

  constructor(db: Database.Database) {
    const page = (lower: '>=' | '>') =>
      db
        .prepare<[string, string, number, number], RawEventRow>(
          `SELECT ${COLUMNS} FROM events WHERE stream_id ${lower} ? AND stream_id < ? AND position <= ?
           ORDER BY stream_id, revision LIMIT ?`,
        )
        .raw(true);
    this.fromPrefix = page('>=');
    this.afterCursor = page('>');
    this.rest = db
      .prepare<[string, number, number], RawEventRow>(
        `SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND revision > ? AND position <= ? ORDER BY revision`,
      )
      .raw(true);
    this.read = db.transaction((o: ReadStreamsOptions) => {
      const upper = upperBound(o.streamPrefix);
      const rows =
        o.afterStream != null && o.afterStream >= o.streamPrefix
          ? this.afterCursor.all(o.afterStream, upper, o.toPosition, o.maxCount)
          : this.fromPrefix.all(o.streamPrefix, upper, o.toPosition, o.maxCount);
      if (rows.length < o.maxCount) return rows;
      // The page ended inside (or at the end of) its last stream: read that stream to its end.
      const last = rows[rows.length - 1];
      for (const row of this.rest.all(last[2], last[3], o.toPosition)) rows.push(row);
      return rows;
    });
  }

  /** See `EventStore.readStreamsByPrefix`; RangeError for an empty prefix, a negative position or a `maxCount` below 1. */
  streams(options: ReadStreamsOptions): RecordedEvent[] {
    if (typeof options.streamPrefix !== 'string' || options.streamPrefix === '')
      throw new RangeError('streamPrefix must be a non-empty string');
    assertNonNegativeInteger('toPosition', options.toPosition);
    if (!Number.isInteger(options.maxCount) || options.maxCount < 1) {
      throw new RangeError(`maxCount must be an integer ≥ 1, got ${options.maxCount}`);
    }
    return this.read(options).map(rawToRecordedEvent);
  }
}

/** The least string above every string that starts with `prefix` (its last UTF-16 unit raised by one). */
export function upperBound(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}
