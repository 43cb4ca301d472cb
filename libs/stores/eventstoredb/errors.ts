import {
  AccessDeniedError,
  CancelledError,
  DeadlineExceededError,
  InvalidArgumentError,
  NotLeaderError,
  StreamDeletedError as ClientStreamDeletedError,
  StreamNotFoundError,
  TimeoutError,
  UnavailableError,
  UnsupportedError,
  WrongExpectedVersionError as ClientWrongExpectedVersionError,
} from '@eventstore/db-client';
import { ExpectedRevision, WrongExpectedVersionError } from '@app/event-sourcing';
import { fromClientCurrentRevision, PositionMappingError } from './positions';

export function isClientWrongExpectedVersion(error: unknown): error is ClientWrongExpectedVersionError {
  return error instanceof ClientWrongExpectedVersionError;
}

/** `actual` the server's current revision, or `'no_stream'` (docs/DESIGN.md "The event store port"). */
export function toPortWrongExpectedVersion(
  error: ClientWrongExpectedVersionError,
  streamId: string,
  expected: ExpectedRevision,
): WrongExpectedVersionError {
  return new WrongExpectedVersionError(streamId, expected, fromClientCurrentRevision(error.actualVersion));
}

/** A tombstoned stream read or appended to (client `utils/CommandError.ts`, `streams/appendToStream/unpackError.ts`). */
export function isClientStreamDeleted(error: unknown): error is ClientStreamDeletedError {
  return error instanceof ClientStreamDeletedError;
}

/** The port answers `[]` then. */
export function isStreamNotFound(error: unknown): error is StreamNotFoundError {
  return error instanceof StreamNotFoundError;
}

/**
 * What a failed client subscription means (docs/DESIGN.md "Failures of the subscription"): `drop`, connection or leadership gone,
 * resubscribed for as long as it takes; `unknown`, the client's `UnknownError` (also what an invalid position becomes) or no known
 * class, resubscribed but a run of them ends it; `permanent`, would fail the same way again (access denied, invalid argument,
 * unsupported, an unmappable position, TypeError, RangeError): ends it at once.
 */
export type SubscriptionFailureKind = 'drop' | 'unknown' | 'permanent';

export function classifySubscriptionError(error: unknown): SubscriptionFailureKind {
  if (
    error instanceof AccessDeniedError ||
    error instanceof InvalidArgumentError ||
    error instanceof UnsupportedError ||
    error instanceof PositionMappingError ||
    error instanceof TypeError ||
    error instanceof RangeError
  ) {
    return 'permanent';
  }
  if (
    error instanceof UnavailableError ||
    error instanceof CancelledError ||
    error instanceof DeadlineExceededError ||
    error instanceof TimeoutError ||
    error instanceof NotLeaderError ||
    (error as { code?: unknown } | null)?.code === 'ERR_STREAM_PREMATURE_CLOSE'
  ) {
    return 'drop';
  }
  return 'unknown';
}
