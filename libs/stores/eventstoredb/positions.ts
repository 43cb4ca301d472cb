/**
 * Positions and revisions between the port (docs/DESIGN.md "Positions") and `@eventstore/db-client` 6.2. The port's position is the
 * event's commit position: for an event not written in an explicit (legacy TCP) transaction, which gRPC cannot write, the server
 * reports commit = prepare = its own log position, from `$all` and stream reads alike (EventStore/EventStore `AllReader.cs`
 * ReadAllEventsForwardInternal, `ResolvedEvent.CalculatePosition`; https://github.com/kurrent-io/KurrentDB/issues/3989, pull 2522).
 * Enforced: commit ≠ prepare, or ≥ 2^53, throws {@link PositionMappingError}; positions are sparse byte offsets, so one handed back
 * must be one the adapter gave; 0 is before everything (`START`); stream reads carry positions from server 22.6 on.
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

/** A server position or revision with no exact port integer. */
export class PositionMappingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PositionMappingError';
  }
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The commit position; {@link PositionMappingError} for commit ≠ prepare (a legacy transaction), negative, or ≥ 2^53. */
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

/** `START` for 0, else the event at `p` (client reads include it, subscriptions exclude it). RangeError for a bad position. */
export function toReadPosition(fromPosition: LogPosition): ReadPosition {
  assertPortPosition(fromPosition);
  if (fromPosition === 0) return START;
  const p = BigInt(fromPosition);
  return { commit: p, prepare: p };
}

export function samePosition(a: Position, b: Position): boolean {
  return a.commit === b.commit && a.prepare === b.prepare;
}

/** To the client's `AppendExpectedRevision`; RangeError for anything else. */
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

/** Any negative (older servers report -1) is `'no_stream'`; {@link PositionMappingError} for ≥ 2^53. */
export function fromClientCurrentRevision(current: CurrentRevision): number | 'no_stream' {
  if (current === NO_STREAM) return 'no_stream';
  if (current < 0n) return 'no_stream';
  return toPortRevision(current);
}

/** {@link PositionMappingError} when ≥ 2^53 or negative. */
export function toPortRevision(revision: bigint): number {
  if (revision < 0n || revision > MAX_SAFE) {
    throw new PositionMappingError(`stream revision ${revision} is outside 0..2^53-1`);
  }
  return Number(revision);
}

/** RangeError unless a safe integer ≥ 0. */
export function assertPortPosition(value: number, name = 'fromPosition'): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be an integer ≥ 0, got ${String(value)}`);
  }
}

/** The port's rule, as on SQLite; for empty batches, which the adapter answers without writing. */
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
