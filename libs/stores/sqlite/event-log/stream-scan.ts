import type { Database } from '@app/sqlite';
import type { ReadStreamsOptions, RecordedEvent } from '@app/event-sourcing';
import { assertNonNegativeInteger } from './sqlite-rows';
import { StreamRanges } from './stream-ranges';

/**
 * Reads whole streams of one category in stream-id order (port: `EventStore.readStreamsByPrefix`)
 * on the index that `UNIQUE (stream_id, revision)` creates, so no sort is needed: the streams whose
 * id lies in `[prefix, prefix with its last character raised by one)` (binary collation), after the
 * cursor, with position ≤ the snapshot's. A call is one range of {@link StreamRanges} (the stream of
 * the `maxCount`-th event, read whole), both reads in one read transaction.
 *
 * Every read binds exactly one lower bound on `stream_id`: the prefix, or the cursor where it lies
 * beyond the prefix. Given two (`stream_id > cursor AND stream_id >= prefix`), SQLite takes one of
 * them as the start of the index range, and with an empty cursor it walked every stream below the
 * prefix: a cost per call that grew with the whole log.
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

  /** See `EventStore.readStreamsByPrefix`; RangeError for an empty prefix, a negative position or a `maxCount` below 1. */
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
