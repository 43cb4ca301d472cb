/**
 * `MongoDataKeyStore.reserve` over a driver double (no MongoDB server): a collection that does what
 * the driver's ordered `insertMany` does on a duplicate id (stores the documents before it, none
 * after, and throws `MongoBulkWriteError` with code 11000, the failed index in `writeErrors` and the
 * ids stored before it in `insertedIds`: mongodb 7.9 `lib/bulk/common.js`, `BulkWriteResult`
 * `getSuccessfullyInsertedIds` for an ordered batch), or stores them all and throws what the driver
 * throws for a majority write concern past its `wtimeoutMS` (./testing/driver-faults.ts); its
 * `deleteMany` may be refused once by a primary that stepped down. So the test shows what the store
 * leaves behind. The store on a server is the data key store contract's
 * (test/contract/mongodb-data-key-store.contract-spec.ts, run when MONGODB_URL is set), which has
 * the duplicate case.
 */
import { Binary, MongoBulkWriteError, MongoServerError, type BulkWriteResult, type Db } from 'mongodb';
import { MongoDataKeyStore } from './mongo-data-key-store';
import { bulkWriteConcernTimeout, failingOnce, steppedDown } from './testing/driver-faults';
import { isMongoUnavailable } from './unavailable';

interface Doc {
  _id: string;
  wrapped: Binary | null;
}

/** `work`, refused by a primary that stepped down on its first call when `fails`. */
function failingOnceIf<A extends unknown[], R>(fails: boolean, work: (...args: A) => Promise<R>) {
  return fails ? failingOnce(steppedDown(), work) : jest.fn(work);
}

/** A `data_keys` collection double: ordered inserts as the driver makes them, deletes by `$or` of exact (id, wrapped). */
function collectionDouble(options: { majority?: 'timed out'; cleanUp?: 'stepped down once' } = {}) {
  const rows = new Map<string, Doc>();
  const collection = {
    insertMany: async (docs: Doc[], insertOptions: { ordered?: boolean }) => {
      expect(insertOptions.ordered).not.toBe(false);
      for (const [index, doc] of docs.entries()) {
        if (rows.has(doc._id)) {
          const insertedIds = Object.fromEntries(docs.slice(0, index).map((d, i) => [i, d._id]));
          const writeErrors = [{ index, code: 11000, errmsg: 'E11000 duplicate key (driver double)' }];
          throw new MongoBulkWriteError(
            { message: 'E11000 duplicate key (driver double)', code: 11000, writeErrors } as unknown as ConstructorParameters<
              typeof MongoBulkWriteError
            >[0],
            { insertedIds, insertedCount: index } as unknown as BulkWriteResult,
          );
        }
        rows.set(doc._id, doc);
      }
      // Applied on the primary, not acknowledged by a majority within wtimeoutMS.
      if (options.majority === 'timed out') throw bulkWriteConcernTimeout(docs.map((d) => d._id));
      return { insertedCount: docs.length };
    },
    deleteMany: failingOnceIf(options.cleanUp === 'stepped down once', async (filter: { $or: Doc[] }) => {
      let deletedCount = 0;
      for (const { _id, wrapped } of filter.$or) {
        const row = rows.get(_id);
        if (row?.wrapped && wrapped && Buffer.from(row.wrapped.buffer).equals(Buffer.from(wrapped.buffer))) {
          rows.delete(_id);
          deletedCount++;
        }
      }
      return { deletedCount };
    }),
  };
  return { db: { collection: () => collection } as unknown as Db, rows, collection };
}

describe('MongoDataKeyStore.reserve (driver double)', () => {
  it('leaves none of a batch stored when one of its ids is held, and the held row as it was', async () => {
    const { db, rows } = collectionDouble();
    const held = new Binary(Buffer.from('held'));
    rows.set('T1', { _id: 'T1', wrapped: held });
    const store = new MongoDataKeyStore(db);
    const batch = ['R1', 'R2', 'T1', 'R3'].map((traineeId, i) => ({ traineeId, wrapped: Buffer.from(`key-${i}`) }));
    const refused = await store.reserve(batch).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(MongoBulkWriteError);
    // What the callers that tell a held id from other failures test for.
    expect(refused).toBeInstanceOf(MongoServerError);
    expect(refused).toMatchObject({ code: 11000, insertedIds: { 0: 'R1', 1: 'R2' } });
    expect([...rows.keys()]).toEqual(['T1']);
    expect(rows.get('T1')!.wrapped).toBe(held);
  });

  it('throws a batch whose write concern timed out as the store being unavailable (a 503), leaving none of it stored', async () => {
    const { db, rows } = collectionDouble({ majority: 'timed out' });
    const batch = ['R1', 'R2'].map((traineeId) => ({ traineeId, wrapped: Buffer.from(traineeId) }));
    const refused = await new MongoDataKeyStore(db).reserve(batch).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(MongoBulkWriteError);
    expect(isMongoUnavailable(refused)).toBe(true);
    expect([...rows.keys()]).toEqual([]);
  });

  it('sends the clean-up again when a step-down refused it, leaving none of the batch stored', async () => {
    const { db, rows, collection } = collectionDouble({ cleanUp: 'stepped down once' });
    rows.set('T1', { _id: 'T1', wrapped: new Binary(Buffer.from('held')) });
    const batch = ['R1', 'R2', 'T1'].map((traineeId) => ({ traineeId, wrapped: Buffer.from(traineeId) }));
    await expect(new MongoDataKeyStore(db).reserve(batch)).rejects.toMatchObject({ code: 11000 });
    expect(collection.deleteMany).toHaveBeenCalledTimes(2);
    expect([...rows.keys()]).toEqual(['T1']);
  });

  it('stores the whole batch when no id is held', async () => {
    const { db, rows } = collectionDouble();
    await new MongoDataKeyStore(db).reserve(['R1', 'R2'].map((traineeId) => ({ traineeId, wrapped: Buffer.from(traineeId) })));
    expect([...rows.keys()]).toEqual(['R1', 'R2']);
  });
});
