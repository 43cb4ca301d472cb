/**
 * Mapping of `@eventstore/db-client` errors onto the port's errors and the adapter's retry rules.
 */
import {
  AccessDeniedError,
  CancelledError,
  DeadlineExceededError,
  InvalidArgumentError,
  NotLeaderError,
  StreamNotFoundError,
  TimeoutError,
  UnavailableError,
  UnsupportedError,
  WrongExpectedVersionError as ClientWrongExpectedVersionError,
} from '@eventstore/db-client';
import { ExpectedRevision, WrongExpectedVersionError } from '@app/event-sourcing';
import { fromClientCurrentRevision, PositionMappingError } from './positions';

/** True when `error` is the client's WrongExpectedVersionError (an append's revision check failed). */
export function isClientWrongExpectedVersion(error: unknown): error is ClientWrongExpectedVersionError {
  return error instanceof ClientWrongExpectedVersionError;
}

/**
 * The port's {@link WrongExpectedVersionError} for the client's: same stream, the port's `expected`
 * as the caller gave it, and `actual` = the server's current revision as a Number, or `'no_stream'`
 * when the stream does not exist. Source: docs/DESIGN.md "The event store port" ("a mismatch raises
 * WrongExpectedVersionError"), port class doc.
 */
export function toPortWrongExpectedVersion(
  error: ClientWrongExpectedVersionError,
  streamId: string,
  expected: ExpectedRevision,
): WrongExpectedVersionError {
  return new WrongExpectedVersionError(streamId, expected, fromClientCurrentRevision(error.actualVersion));
}

/** True when `error` says the stream read does not exist (the port answers `[]` then). */
export function isStreamNotFound(error: unknown): error is StreamNotFoundError {
  return error instanceof StreamNotFoundError;
}

/**
 * What a failure of one client subscription means for the resilient subscription
 * (eventstoredb-subscription.ts; docs/DESIGN.md "Failures of the subscription"):
 *
 * - `drop`: the connection or the server's leadership went away (unavailable, cancelled, deadline
 *   or timeout, not leader, a prematurely closed stream). Resubscribed after a backoff, for as long
 *   as it takes; each retry is logged.
 * - `unknown`: anything else the client could not name (its `UnknownError`, which is also what an
 *   invalid position becomes, or an error of no known class). Resubscribed and logged, but a run of
 *   them with nothing delivered in between ends the subscription with a PermanentSubscriptionError.
 * - `permanent`: access denied, an invalid argument, an unsupported server feature, a position the
 *   adapter cannot map ({@link PositionMappingError}), and programming errors (TypeError,
 *   RangeError). Subscribing again would fail the same way: the subscription ends at once.
 */
export type SubscriptionFailureKind = 'drop' | 'unknown' | 'permanent';

/** Classifies `error` (see {@link SubscriptionFailureKind}). */
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
