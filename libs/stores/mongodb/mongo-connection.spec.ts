/**
 * The write concern every store writes with (`writeConcernOf`, set on the `Db` by `openDatabase`): majority, journaled, and bounded by
 * `wtimeoutMS` from the connection string, else the default. `MongoClient` parses the string without connecting. And
 * `retryMultiWrite`, which sends a multi-document write again as the driver would a retryable one, over writes that fail as the
 * driver fails them (./testing/driver-faults.ts).
 */
import { MongoClient, MongoServerError, MongoWriteConcernError } from 'mongodb';
import { DEFAULT_WRITE_TIMEOUT_MS, MULTI_WRITE_ATTEMPTS, retryMultiWrite, writeConcernOf } from './mongo-connection';
import {
  connectionClosed,
  failingOnce,
  INTERRUPTED_DUE_TO_REPL_STATE_CHANGE,
  steppedDown,
  writeConcernTimeout,
} from './testing/driver-faults';

describe('writeConcernOf', () => {
  it('waits for a majority at most DEFAULT_WRITE_TIMEOUT_MS when the connection string names no wtimeoutMS', () => {
    expect(writeConcernOf(new MongoClient('mongodb://db0.example:27017,db1.example:27017/records?replicaSet=rs0'))).toEqual({
      w: 'majority',
      journal: true,
      wtimeoutMS: DEFAULT_WRITE_TIMEOUT_MS,
    });
    expect(DEFAULT_WRITE_TIMEOUT_MS).toBe(10_000);
  });

  it("takes the connection string's wtimeoutMS, and keeps majority and journal whatever else it asks", () => {
    expect(writeConcernOf(new MongoClient('mongodb://db0.example/records?wtimeoutMS=2500&w=1&journal=false'))).toEqual({
      w: 'majority',
      journal: true,
      wtimeoutMS: 2500,
    });
    expect(writeConcernOf(new MongoClient('mongodb+srv://cluster.example/records?wtimeoutMS=0')).wtimeoutMS).toBe(0);
  });
});

describe('retryMultiWrite', () => {
  it('sends a write again after a step-down, telling it so, and answers what the second attempt did', async () => {
    const write = failingOnce(steppedDown(), async (again: boolean) => ({ deletedCount: 3, again }));
    await expect(retryMultiWrite(write)).resolves.toEqual({ deletedCount: 3, again: true });
    expect(write.mock.calls).toEqual([[false], [true]]);
  });

  it('sends it again after a lost connection', async () => {
    const write = failingOnce(connectionClosed(), async () => 'done');
    await expect(retryMultiWrite(write)).resolves.toBe('done');
  });

  it('gives up after MULTI_WRITE_ATTEMPTS, throwing the last error', async () => {
    const last = steppedDown(INTERRUPTED_DUE_TO_REPL_STATE_CHANGE);
    const write = jest.fn().mockRejectedValueOnce(steppedDown()).mockRejectedValueOnce(last);
    await expect(retryMultiWrite(write)).rejects.toBe(last);
    expect(write).toHaveBeenCalledTimes(MULTI_WRITE_ATTEMPTS);
  });

  it('does not send again a write past its wtimeout, nor one refused for a duplicate key', async () => {
    const timedOut = failingOnce(writeConcernTimeout(), async () => 'done', true);
    await expect(retryMultiWrite(timedOut)).rejects.toBeInstanceOf(MongoWriteConcernError);
    expect(timedOut).toHaveBeenCalledTimes(1);
    const duplicate = failingOnce(new MongoServerError({ code: 11000, errmsg: 'E11000' }), async () => 'done');
    await expect(retryMultiWrite(duplicate)).rejects.toBeInstanceOf(MongoServerError);
    expect(duplicate).toHaveBeenCalledTimes(1);
  });
});
