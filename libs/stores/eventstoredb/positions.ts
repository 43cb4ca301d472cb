/**
 * How the EventStoreDB adapter maps positions and revisions between the port (docs/DESIGN.md "The
 * event store port") and `@eventstore/db-client` 6.2.
 *
 * ## Positions: the port's integer is EventStoreDB's commit position
 *
 * The port wants one strictly increasing integer per event; `$all` gives each event a
 * `{ commit, prepare }` pair of byte offsets in the transaction log. The mapping is
 * `position = Number(commit)`, and back `{ commit: BigInt(p), prepare: BigInt(p) }`. It is sound
 * because, for every event appended without an explicit (TCP-era) transaction, EventStoreDB reports
 * `commit === prepare === the event's own log position`:
 *
 * - The server's `$all` reader builds the position of an implicitly committed event (the only kind
 *   a gRPC append writes, batches included: each event is its own prepare record flagged
 *   `IsCommitted`) as `new CommitEventRecord(eventRecord, eventRecord.LogPosition)`, i.e. commit
 *   and prepare both equal that event's log position, and it treats a read start `TFPos(p, p)` as
 *   inclusive of the event at `p`. Only events of an explicit transaction (a separate commit
 *   record) share one commit position with distinct prepare positions. Source: EventStore/EventStore,
 *   `src/EventStore.Core/Services/Storage/ReaderIndex/AllReader.cs` (ReadAllEventsForwardInternal).
 * - Stream reads report the same pair: the server's `ResolvedEvent.CalculatePosition` returns
 *   `TFPos(LogPosition, LogPosition)` for a self-committed event and no position otherwise (sent as
 *   -1, which reaches the client as 2^64-1). Source: EventStore/EventStore
 *   `src/EventStore.Core/Data/ResolvedEvent.cs`. So `readStream` and `readAll` agree on positions.
 * - A maintainer: "Prepare position can only be different if you use explicit transactions"
 *   (https://github.com/kurrent-io/KurrentDB/issues/3989). Explicit transactions exist only in the
 *   legacy TCP client API; the gRPC API used here cannot write them.
 * - The gRPC reads report the event's own prepare position rather than its transaction's since
 *   https://github.com/kurrent-io/KurrentDB/pull/2522 (merged June 2020).
 *
 * Limits, enforced rather than assumed:
 * - An event whose commit and prepare positions differ (written inside a legacy TCP transaction)
 *   cannot be given a unique integer: {@link toPortPosition} throws {@link PositionMappingError}
 *   instead of yielding two events at one position.
 * - Commit positions are byte offsets; `Number` is exact below 2^53 (8 PiB of log). Beyond that
 *   {@link toPortPosition} throws rather than round.
 * - Positions have gaps (they are byte offsets), which the port allows ("strictly increasing").
 * - Position 0 is the start of the log, which holds the epoch record, never a user event; the port
 *   uses 0 to mean "before everything", mapped to the client's `START`.
 * - A port position handed back to the adapter (a checkpoint) must be one the adapter produced:
 *   an arbitrary integer is not a record boundary of the log.
 * - Events read from a stream carry a position only from server 22.6 on (client docs for
 *   `RecordedEvent.position`); older servers are not supported.
 */
import {
  ANY,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  type AppendExpectedRevision,
  type CurrentRevision,
  type Position,
  type ReadPosition,
} from '@eventstore/db-client';
import { logPosition, type ExpectedRevision, type LogPosition } from '@app/event-sourcing';

/** Raised when a server position or revision cannot be represented exactly as a port integer. */
export class PositionMappingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PositionMappingError';
  }
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The port position of an event from its `$all` position: the commit position as a Number.
 * Takes the client's `{ commit, prepare }` (bigint byte offsets); returns an integer ≥ 0.
 * Throws {@link PositionMappingError} when commit ≠ prepare (legacy transaction), when negative,
 * or when ≥ 2^53. Source: this module's doc (docs/DESIGN.md "The event store port": one global position).
 */
export function toPortPosition(position: Position): LogPosition {
  if (position.commit !== position.prepare) {
    throw new PositionMappingError(
      `event at commit position ${position.commit} has prepare position ${position.prepare}: events of ` +
        'explicit (legacy TCP) transactions share a commit position and cannot be mapped to one integer each',
    );
  }
  if (position.commit < 0n || position.commit > MAX_SAFE) {
    throw new PositionMappingError(`commit position ${position.commit} is outside 0..2^53-1`);
  }
  return logPosition(Number(position.commit));
}

/**
 * The client read position for a port checkpoint: `START` for 0, otherwise `{ commit: p,
 * prepare: p }` (the event at `p`; client reads from it inclusively, subscriptions exclusively).
 * Throws a RangeError for a negative or non-integer position.
 */
export function toReadPosition(fromPosition: number): ReadPosition {
  assertPortPosition(fromPosition);
  if (fromPosition === 0) return START;
  const p = BigInt(fromPosition);
  return { commit: p, prepare: p };
}

/** True when two client positions are the same record position (both parts equal). */
export function samePosition(a: Position, b: Position): boolean {
  return a.commit === b.commit && a.prepare === b.prepare;
}

/**
 * The client's expected revision for the port's: `'no_stream'` → `NO_STREAM`, `'stream_exists'` →
 * `STREAM_EXISTS`, `'any'` → `ANY`, an integer n ≥ 0 → `BigInt(n)`. Throws a RangeError otherwise.
 * Source: docs/DESIGN.md "The event store port" (expectedRevision), client `AppendExpectedRevision`.
 */
export function toClientExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    case 'any':
      return ANY;
    default:
      if (typeof expected === 'number' && Number.isSafeInteger(expected) && expected >= 0) return BigInt(expected);
      throw new RangeError(`expectedRevision must be 'no_stream', 'stream_exists', 'any' or an integer ≥ 0, got ${String(expected)}`);
  }
}

/**
 * The port's actual revision for the client's current revision: `'no_stream'` (or any negative
 * bigint, as older servers report -1) → `'no_stream'`, otherwise the revision as a Number.
 * Throws {@link PositionMappingError} for a revision ≥ 2^53.
 */
export function fromClientCurrentRevision(current: CurrentRevision): number | 'no_stream' {
  if (current === NO_STREAM) return 'no_stream';
  if (current < 0n) return 'no_stream';
  return toPortRevision(current);
}

/** A stream revision (bigint, ≥ 0) as a Number; throws {@link PositionMappingError} when ≥ 2^53 or negative. */
export function toPortRevision(revision: bigint): number {
  if (revision < 0n || revision > MAX_SAFE) {
    throw new PositionMappingError(`stream revision ${revision} is outside 0..2^53-1`);
  }
  return Number(revision);
}

/** Throws a RangeError unless `value` is a safe integer ≥ 0 (a port position or revision). */
export function assertPortPosition(value: number, name = 'fromPosition'): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be an integer ≥ 0, got ${String(value)}`);
  }
}

/**
 * Whether a stream whose last revision is `actual` (`'no_stream'` when absent) satisfies
 * `expected`, by the port's rule (docs/DESIGN.md "The event store port"; same check as the SQLite
 * adapter). Used for empty batches, which the adapter answers itself without writing.
 */
export function expectedRevisionMatches(expected: ExpectedRevision, actual: number | 'no_stream'): boolean {
  switch (expected) {
    case 'any':
      return true;
    case 'no_stream':
      return actual === 'no_stream';
    case 'stream_exists':
      return actual !== 'no_stream';
    default:
      return expected === actual;
  }
}
