/**
 * Errors of the `mongodb` driver (7.9) built as the driver builds them, for the stores' driver doubles: what a replica set whose
 * secondaries lag or whose primary steps down makes a write throw. Each names the driver source (`node_modules/mongodb/src/`) it
 * follows, and the server rule (mongod `src/mongo/db/error_labels.cpp`) where the server decides. Not modelled: the driver's own retry
 * of a retryable write (`operations/execute_operation.ts`), which a double stands for by succeeding on the call after the failure.
 */
import {
  MongoBulkWriteError,
  MongoErrorLabel,
  MongoNetworkError,
  MongoServerError,
  MongoWriteConcernError,
  type BulkWriteResult,
} from 'mongodb';

/** WriteConcernFailed; the driver's `MONGODB_ERROR_CODES.WriteConcernTimeout` (`error.ts`). */
export const WRITE_CONCERN_FAILED = 64;
export const NOT_WRITABLE_PRIMARY = 10107;
export const INTERRUPTED_DUE_TO_REPL_STATE_CHANGE = 11602;

/** The `writeConcernError` of a reply whose write was applied on the primary but not acknowledged by a majority within `wtimeout`. */
function wtimeoutReply(n: number) {
  return {
    ok: 1,
    n,
    writeConcernError: {
      code: WRITE_CONCERN_FAILED,
      codeName: 'WriteConcernFailed',
      errmsg: 'waiting for replication timed out',
      errInfo: { wtimeout: true, writeConcern: { w: 'majority', wtimeout: 10_000, provenance: 'clientSupplied' } },
    },
  };
}

/**
 * What a single-document write (`insertOne`, `updateOne`, …) throws when its majority write concern timed out: `sdam/server.ts` calls
 * `throwIfWriteConcernError` (`write_concern.ts`) on the `ok: 1` reply, which throws `new MongoWriteConcernError(reply)`. No label:
 * the server labels only retryable codes, and 64 is not one (`error.ts` `RETRYABLE_WRITE_ERROR_CODES`).
 */
export function writeConcernTimeout(n = 1): MongoWriteConcernError {
  return new MongoWriteConcernError(wtimeoutReply(n));
}

/** The driver's bulk internals (`bulk/common.ts`), left out of its typings: loaded from its build, as the driver loads them. */
interface BulkInternals {
  BatchType: { INSERT: number };
  mergeBatchResults(batch: object, bulkResult: object, error: Error): void;
  BulkWriteResult: new (bulkResult: object, isOrdered: boolean) => BulkWriteResult;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const bulkInternals = require('mongodb/lib/bulk/common') as BulkInternals;

/**
 * What `insertMany` (and `bulkWrite`) throw for the same reply to a batch of `inserted` ids: `bulk/common.ts` `executeCommands` catches
 * the `MongoWriteConcernError`, merges it into the bulk result (`mergeBatchResults`: `n` counted, a `WriteConcernError` pushed), and
 * throws `new MongoBulkWriteError({ message: errmsg, code }, new BulkWriteResult(bulkResult, isOrdered))`: named `MongoBulkWriteError`,
 * code 64, the write concern error on `result.getWriteConcernError()`. Built with those driver functions themselves.
 */
export function bulkWriteConcernTimeout(inserted: string[] = [], ordered = true): MongoBulkWriteError {
  const thrown = writeConcernTimeout(inserted.length);
  const operations = inserted.map((_id) => ({ _id }));
  const batch = {
    batchType: bulkInternals.BatchType.INSERT,
    originalZeroIndex: 0,
    currentIndex: 0,
    originalIndexes: operations.map((_, i) => i),
    operations,
  };
  const bulkResult = {
    ok: 1,
    writeErrors: [],
    writeConcernErrors: [],
    insertedIds: operations.map((op, index) => ({ index, _id: op._id })),
    nInserted: 0,
    nUpserted: 0,
    nMatched: 0,
    nModified: 0,
    nRemoved: 0,
    upserted: [],
  };
  bulkInternals.mergeBatchResults(batch, bulkResult, thrown);
  return new MongoBulkWriteError(
    { message: thrown.result.writeConcernError.errmsg, code: thrown.result.writeConcernError.code },
    new bulkInternals.BulkWriteResult(bulkResult, ordered),
  );
}

/**
 * What a write sent to a primary that stepped down throws: the `ok: 0` reply made `new MongoServerError(reply)`
 * (`cmap/connection.ts` `command`), code 10107 (NotWritablePrimary: it was no longer primary when the write arrived) or 11602
 * (InterruptedDueToReplStateChange: the step-down interrupted it, so part of a multi-document write may be done). `retryableWrite`:
 * the server adds the `RetryableWriteError` label only to a write sent as a retryable write, with a `txnNumber` (`error_labels.cpp`
 * `ErrorLabelBuilder::isRetryableWriteError`), which the driver never gives `updateMany` or `deleteMany` (`operations/update.ts`,
 * `operations/delete.ts` `canRetryWrite`); the driver adds none to a server's reply (`error.ts` `needsRetryableWriteLabel` is false
 * for a `MongoError` that is no handshake error).
 */
export function steppedDown(code = NOT_WRITABLE_PRIMARY, retryableWrite = false): MongoServerError {
  const codeName = code === NOT_WRITABLE_PRIMARY ? 'NotWritablePrimary' : 'InterruptedDueToReplStateChange';
  const errmsg = code === NOT_WRITABLE_PRIMARY ? 'not primary' : 'operation was interrupted because of a replica set state change';
  return new MongoServerError({
    ok: 0,
    code,
    codeName,
    errmsg,
    ...(retryableWrite ? { errorLabels: [MongoErrorLabel.RetryableWriteError] } : {}),
  });
}

/**
 * What a write throws when its connection was lost before the reply (a failover, a node restarting): a
 * `MongoNetworkError`, labelled `RetryableWriteError` by `sdam/server.ts` `decorateCommandError` whenever retryable writes are on
 * (the default), whatever the write, so also for `updateMany` and `deleteMany`, which the driver itself does not retry.
 */
export function connectionClosed(): MongoNetworkError {
  const error = new MongoNetworkError('connection 4 to 10.0.0.2:27017 closed');
  error.addErrorLabel(MongoErrorLabel.RetryableWriteError);
  return error;
}

/**
 * A double's write that throws `fault` on its first call and does `work` on every later one: the write as sent again after a
 * failover. `workedFirst`: the first call did its work before throwing (a reply lost after the write, a write concern not met in time,
 * or a multi-document write interrupted once it had updated every document it matched).
 */
export function failingOnce<A extends unknown[], R>(
  fault: Error,
  work: (...args: A) => Promise<R>,
  workedFirst = false,
): jest.Mock<Promise<R>, A> {
  let failed = false;
  return jest.fn(async (...args: A) => {
    if (failed) return work(...args);
    failed = true;
    if (workedFirst) await work(...args);
    throw fault;
  });
}
