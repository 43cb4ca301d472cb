/**
 * Which driver errors `isMongoUnavailable` tells as the deployment not answering now, built with the
 * driver's own error classes (mongodb 7.9), as the driver throws them.
 */
import {
  MongoBulkWriteError,
  MongoInvalidArgumentError,
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
  MongoWriteConcernError,
  type BulkWriteResult,
} from 'mongodb';
import { isMongoUnavailable, isRetryableMongoWrite } from './unavailable';
import {
  bulkWriteConcernTimeout,
  connectionClosed,
  INTERRUPTED_DUE_TO_REPL_STATE_CHANGE,
  steppedDown,
  writeConcernTimeout,
} from './testing/driver-faults';

const serverError = (code: number, errorLabels: string[] = []) => new MongoServerError({ message: `code ${code}`, code, errorLabels });

describe('isMongoUnavailable', () => {
  it.each([
    ['a lost connection', new MongoNetworkError('connection 3 to 10.0.0.2:27017 closed')],
    ['a timed-out socket', new MongoNetworkTimeoutError('connection timed out')],
    [
      'no server selected',
      new MongoServerSelectionError('Server selection timed out after 30000 ms', { type: 'ReplicaSetNoPrimary' } as never),
    ],
    [
      'a write concern not met in time',
      new MongoWriteConcernError({ writeConcernError: { code: 64, errmsg: 'waiting for replication timed out' } } as never),
    ],
    ['a write past its wtimeout, as the driver throws it', writeConcernTimeout()],
    [
      'an insertMany or bulkWrite past its wtimeout, as the driver throws it (MongoBulkWriteError, code 64)',
      bulkWriteConcernTimeout(['R1']),
    ],
    ['a primary stepping down (189)', serverError(189)],
    ['not writable primary (10107)', serverError(10107)],
    ['interrupted by a state change (11602)', serverError(11602)],
    ['a code not in the list, labelled RetryableWriteError', serverError(1, ['RetryableWriteError'])],
  ])('tells %s', (_, error) => {
    expect(isMongoUnavailable(error)).toBe(true);
  });

  it.each([
    ['a duplicate key (11000)', serverError(11000)],
    [
      'a bulk write refused for a duplicate key',
      new MongoBulkWriteError(
        { message: 'E11000', code: 11000, writeErrors: [] } as never,
        { insertedIds: {} } as unknown as BulkWriteResult,
      ),
    ],
    ['an invalid argument', new MongoInvalidArgumentError('bad option')],
    ['an error of another library', new Error('connection closed')],
    ['a thrown string', 'MongoNetworkError'],
  ])('does not tell %s', (_, error) => {
    expect(isMongoUnavailable(error)).toBe(false);
  });
});

describe('isRetryableMongoWrite', () => {
  it.each([
    ['a write sent to a primary that had stepped down (10107, unlabelled as on updateMany)', steppedDown()],
    ['a write interrupted by a step-down (11602, unlabelled)', steppedDown(INTERRUPTED_DUE_TO_REPL_STATE_CHANGE)],
    ['a retryable write refused by a primary stepping down, labelled by the server', steppedDown(undefined, true)],
    ['a lost connection, labelled by the driver', connectionClosed()],
    ['a code not in the list, labelled PoolRequestedRetry', serverError(1, ['PoolRequestedRetry'])],
  ])('sends again after %s', (_, error) => {
    expect(isRetryableMongoWrite(error)).toBe(true);
  });

  it.each([
    ['a write concern past its wtimeout (done on the primary; sent again it would wait as long)', writeConcernTimeout()],
    ['a bulk write concern past its wtimeout', bulkWriteConcernTimeout(['R1'])],
    ['no server selected (its whole timeout waited)', new MongoServerSelectionError('Server selection timed out', {} as never)],
    ['a duplicate key (11000)', serverError(11000)],
    ['an error of another library', new Error('connection closed')],
  ])('does not send again after %s', (_, error) => {
    expect(isRetryableMongoWrite(error)).toBe(false);
  });
});
