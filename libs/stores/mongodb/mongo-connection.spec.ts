/**
 * The write concern every store writes with (`writeConcernOf`, set on the `Db` by `openDatabase`): majority, journaled, and bounded by
 * `wtimeoutMS` from the connection string, else the default. `MongoClient` parses the string without connecting.
 */
import { MongoClient } from 'mongodb';
import { DEFAULT_WRITE_TIMEOUT_MS, writeConcernOf } from './mongo-connection';

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
