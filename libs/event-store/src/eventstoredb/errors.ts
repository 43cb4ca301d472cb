/**
 * Mapping of `@eventstore/db-client` errors onto the port's errors and the adapter's retry rules.
 */
import {
  AccessDeniedError,
  InvalidArgumentError,
  StreamNotFoundError,
  UnsupportedError,
  WrongExpectedVersionError as ClientWrongExpectedVersionError,
} from '@eventstore/db-client';
import { ExpectedRevision, WrongExpectedVersionError } from '../event-store.port';
import { fromClientCurrentRevision, PositionMappingError } from './positions';

/** True when `error` is the client's WrongExpectedVersionError (an append's revision check failed). */
export function isClientWrongExpectedVersion(error: unknown): error is ClientWrongExpectedVersionError {
  return error instanceof ClientWrongExpectedVersionError;
}

/**
 * The port's {@link WrongExpectedVersionError} for the client's: same stream, the port's
 * `expected` as the caller gave it, and `actual` = the server's current revision as a Number, or
 * `'no_stream'` when the stream does not exist. Source: docs/DESIGN.md event store port ("a mismatch
 * raises WrongExpectedVersionError"), port class doc.
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
 * Whether a subscription that failed with `error` should resubscribe (after a backoff) rather than
 * end with the error. Permanent: access denied, invalid argument, an unsupported server feature, a
 * position the adapter cannot map ({@link PositionMappingError}), and programming errors
 * (TypeError, RangeError). Everything else (unavailable, cancelled by the server, deadline, not
 * leader, unknown, a dropped connection, …) is treated as a drop and retried.
 */
export function isTransientSubscriptionError(error: unknown): boolean {
  if (
    error instanceof AccessDeniedError ||
    error instanceof InvalidArgumentError ||
    error instanceof UnsupportedError ||
    error instanceof PositionMappingError ||
    error instanceof TypeError ||
    error instanceof RangeError
  ) {
    return false;
  }
  return true;
}
