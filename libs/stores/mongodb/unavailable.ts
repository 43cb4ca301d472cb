/**
 * Which errors of the MongoDB driver (mongodb 7.9, `lib/error.js`) say the deployment cannot answer now: no server selected, the
 * connection lost or timed out, a write concern not met in time (`MongoWriteConcernError`, or a `MongoBulkWriteError` whose result
 * holds the write concern error: what `insertMany` and `bulkWrite` throw, `bulk/common.ts` `executeCommands`), or a server answer
 * with a code the retryable-writes and retryable-reads specifications list (a primary stepping down, a node shutting down or
 * recovering) or with the `RetryableWriteError` or `TransientTransactionError` label. A write so failed may have been done. Told
 * by name and code, so the driver is loaded only where MongoDB is in use.
 */
const UNAVAILABLE_NAMES = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongoWriteConcernError',
  'MongoOperationTimeoutError',
]);

/** `RETRYABLE_READ_ERROR_CODES`, which the driver uses for writes too. */
const RETRYABLE_CODES = new Set([6, 7, 89, 91, 134, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436]);

const TRANSIENT_LABELS = ['RetryableWriteError', 'TransientTransactionError'];

const RETRY_LABELS = ['RetryableWriteError', 'PoolRequestedRetry'];

/** True for an error of the driver that says the deployment cannot answer now (see the module doc). */
export function isMongoUnavailable(error: unknown): boolean {
  if (!(error instanceof Error) || !error.name.startsWith('Mongo')) return false;
  if (UNAVAILABLE_NAMES.has(error.name) || isBulkWriteConcernError(error)) return true;
  const { code, errorLabels } = error as { code?: unknown; errorLabels?: unknown };
  if (typeof code === 'number' && RETRYABLE_CODES.has(code)) return true;
  return Array.isArray(errorLabels) && errorLabels.some((label) => TRANSIENT_LABELS.includes(label as string));
}

function isBulkWriteConcernError(error: Error): boolean {
  if (error.name !== 'MongoBulkWriteError') return false;
  const result = (error as { result?: { getWriteConcernError?: () => unknown } }).result;
  return typeof result?.getWriteConcernError === 'function' && result.getWriteConcernError() != null;
}

/**
 * True for an error after which the driver would send a retryable write again (`operations/execute_operation.ts`, `canRetry`): the
 * `RetryableWriteError` or `PoolRequestedRetry` label (`error.ts` `isRetryableWriteError`), a lost connection (labelled so by
 * `sdam/server.ts` `decorateCommandError`), or a code of the retryable-writes list (`RETRYABLE_WRITE_ERROR_CODES`), which the server
 * labels only on a write sent as retryable (mongod `error_labels.cpp`), never on `updateMany` or `deleteMany`. Not a write concern
 * timeout (the write was done; sent again it would wait as long) nor a failed server selection (it waited its whole timeout).
 */
export function isRetryableMongoWrite(error: unknown): boolean {
  if (!(error instanceof Error) || !error.name.startsWith('Mongo')) return false;
  if (error.name === 'MongoNetworkError' || error.name === 'MongoNetworkTimeoutError') return true;
  const { code, errorLabels } = error as { code?: unknown; errorLabels?: unknown };
  if (typeof code === 'number' && RETRYABLE_CODES.has(code)) return true;
  return Array.isArray(errorLabels) && errorLabels.some((label) => RETRY_LABELS.includes(label as string));
}
