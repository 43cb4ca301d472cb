import type { Database } from '@app/sqlite';
import type { ReadStreamsOptions, RecordedEvent } from '@app/event-sourcing';
import { assertNonNegativeInteger } from './sqlite-rows';
import { StreamRanges } from './stream-ranges';

/**
 * Whole streams of one category in stream-id order (port `readStreamsByPrefix`) on the `(stream_id, revision)` index, no sort: ids in
 * `[prefix, prefix raised by one)` (binary collation) after the cursor, at or below the snapshot. One range of {@link StreamRanges} per
 * call, in one read transaction. Each read binds one lower bound on `stream_id`: given two, SQLite picked one as the index range's start,
 * and with an empty cursor walked every stream below the prefix, a cost that grew with the log.
 */
export class StreamScan {
  private readonly read: Database.Transaction<(options: ReadStreamsOptions) => RecordedEvent[]>;

  constructor(db: Database.Database) {
    const ranges = new StreamRanges(db);
    this.read = db.transaction((o: ReadStreamsOptions) => {
      const start = { streamPrefix: o.streamPrefix, afterStream: o.afterStream ?? null, toPosition: o.toPosition };
      return ranges.read(start, ranges.end(start, o.maxCount));
    });
  }

  /** RangeError for an empty prefix, a negative position or a `maxCount` below 1. */
  streams(options: ReadStreamsOptions): RecordedEvent[] {
    if (typeof options.streamPrefix !== 'string' || options.streamPrefix === '')
      throw new RangeError('streamPrefix must be a non-empty string');
    assertNonNegativeInteger('toPosition', options.toPosition);
    if (!Number.isInteger(options.maxCount) || options.maxCount < 1) {
      throw new RangeError(`maxCount must be an integer ≥ 1, got ${options.maxCount}`);
    }
    return this.read(options);
  }
}
