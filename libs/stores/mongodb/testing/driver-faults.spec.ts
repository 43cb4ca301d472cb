/**
 * The driver errors of driver-faults.ts carry what the driver's own code reads from them (mongodb 7.9): the name and code, the bulk
 * result's write concern error (`bulk/common.ts` `BulkWriteResult.getWriteConcernError`), and the labels (`error.ts`
 * `isRetryableWriteError`).
 */
import { MongoBulkWriteError, MongoErrorLabel, MongoNetworkError, MongoServerError, MongoWriteConcernError } from 'mongodb';
import {
  bulkWriteConcernTimeout,
  connectionClosed,
  failingOnce,
  INTERRUPTED_DUE_TO_REPL_STATE_CHANGE,
  NOT_WRITABLE_PRIMARY,
  steppedDown,
  WRITE_CONCERN_FAILED,
  writeConcernTimeout,
} from './driver-faults';

describe('driver faults', () => {
  it('a single write past its wtimeout: MongoWriteConcernError, code 64, the reply kept, no label', () => {
    const error = writeConcernTimeout();
    expect(error).toBeInstanceOf(MongoWriteConcernError);
    expect(error.name).toBe('MongoWriteConcernError');
    expect(error.code).toBe(WRITE_CONCERN_FAILED);
    expect(error.result.writeConcernError.errInfo).toEqual(expect.objectContaining({ wtimeout: true }));
    expect(error.errorLabels).toEqual([]);
  });

  it('a bulk write past its wtimeout: MongoBulkWriteError, code 64, the write concern error on its result, what was inserted', () => {
    const error = bulkWriteConcernTimeout(['R1', 'R2']);
    expect(error).toBeInstanceOf(MongoBulkWriteError);
    expect(error.name).toBe('MongoBulkWriteError');
    expect(error.code).toBe(WRITE_CONCERN_FAILED);
    expect(error.result.getWriteConcernError()?.code).toBe(WRITE_CONCERN_FAILED);
    expect(error.result.getWriteErrors()).toEqual([]);
    expect(error.insertedCount).toBe(2);
    expect(error.errorLabels).toEqual([]);
  });

  it('a step-down: MongoServerError with its code, labelled only when sent as a retryable write', () => {
    const multi = steppedDown(INTERRUPTED_DUE_TO_REPL_STATE_CHANGE);
    expect(multi).toBeInstanceOf(MongoServerError);
    expect(multi.code).toBe(INTERRUPTED_DUE_TO_REPL_STATE_CHANGE);
    expect(multi.hasErrorLabel(MongoErrorLabel.RetryableWriteError)).toBe(false);
    const single = steppedDown(NOT_WRITABLE_PRIMARY, true);
    expect(single.codeName).toBe('NotWritablePrimary');
    expect(single.hasErrorLabel(MongoErrorLabel.RetryableWriteError)).toBe(true);
  });

  it('a lost connection: MongoNetworkError labelled RetryableWriteError', () => {
    const error = connectionClosed();
    expect(error).toBeInstanceOf(MongoNetworkError);
    expect(error.hasErrorLabel(MongoErrorLabel.RetryableWriteError)).toBe(true);
  });
});

describe('failingOnce', () => {
  it('throws the fault on the first call, then does the work; with workedFirst, the work is done before the fault too', async () => {
    let done = 0;
    const work = async () => ++done;
    const write = failingOnce(steppedDown(), work);
    await expect(write()).rejects.toBeInstanceOf(MongoServerError);
    expect(done).toBe(0);
    await expect(write()).resolves.toBe(1);
    const late = failingOnce(writeConcernTimeout(), work, true);
    await expect(late()).rejects.toBeInstanceOf(MongoWriteConcernError);
    expect(done).toBe(2);
  });
});
