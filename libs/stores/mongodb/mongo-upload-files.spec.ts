/**
 * `MongoUploadFiles` over a driver double (no MongoDB server): a collection that does what the
 * driver's `replaceOne` with `upsert`, `findOne`, `find` and `deleteMany` do, recording the write
 * concern each write names; its `deleteMany` may be refused by a primary that stepped down. The
 * store on a server is the upload store contract's (test/contract/mongodb-upload-files.contract-spec.ts,
 * run when MONGODB_URL is set).
 */
import { Binary, type Db } from 'mongodb';
import { MongoUploadFiles, UPLOAD_PARTS_COLLECTION } from './mongo-upload-files';
import { steppedDown } from './testing/driver-faults';

interface Doc {
  _id: string;
  upload_id: string;
  part: string;
  bytes: Binary;
}

/** `stepDowns`: how many `deleteMany` calls a primary that stepped down refuses first (./testing/driver-faults.ts). */
function collectionDouble(stepDowns = 0) {
  const rows = new Map<string, Doc>();
  const concerns: unknown[] = [];
  const names: string[] = [];
  const collection = {
    createIndex: async () => 'by_upload',
    replaceOne: async (filter: { _id: string }, doc: Doc, options: { upsert?: boolean; writeConcern?: unknown }) => {
      expect(options.upsert).toBe(true);
      concerns.push(options.writeConcern);
      rows.set(filter._id, structuredClone({ ...doc, bytes: undefined }) as unknown as Doc);
      rows.get(filter._id)!.bytes = new Binary(Buffer.from(doc.bytes.buffer));
      return { acknowledged: true };
    },
    findOne: async (filter: { _id: string }) => rows.get(filter._id) ?? null,
    find: (filter: { upload_id: string }) => ({
      toArray: async () => [...rows.values()].filter((d) => d.upload_id === filter.upload_id).map((d) => ({ part: d.part })),
    }),
    deleteMany: async (filter: { upload_id: string }, options?: { writeConcern?: unknown }) => {
      concerns.push(options?.writeConcern);
      if (stepDowns > 0 && stepDowns--) throw steppedDown();
      let deletedCount = 0;
      for (const [id, d] of rows) if (d.upload_id === filter.upload_id && rows.delete(id)) deletedCount++;
      return { deletedCount };
    },
  };
  const db = { collection: (name: string) => (names.push(name), collection) } as unknown as Db;
  return { db, rows, concerns, names };
}

describe('MongoUploadFiles (driver double)', () => {
  it('keeps each part as a document of its own, read back byte for byte, writing with the write concern of its Db', async () => {
    const { db, rows, concerns, names } = collectionDouble();
    const store = new MongoUploadFiles(db);
    await store.put('u1', 'file', Buffer.from('a,b\r\n'));
    await store.put('u1', 'messages-x', Buffer.from('[]'));
    await store.put('u2', 'file', Buffer.from('c'));
    expect(names).toEqual([UPLOAD_PARTS_COLLECTION]);
    expect([...rows.keys()]).toEqual(['u1/file', 'u1/messages-x', 'u2/file']);
    expect(Buffer.from((await store.get('u1', 'file'))!).toString()).toBe('a,b\r\n');
    expect(await store.get('u1', 'other')).toBeNull();
    expect(await store.parts('u1')).toEqual(['file', 'messages-x']);
    expect(await store.delete('u1')).toBe(2);
    expect(await store.parts('u1')).toEqual([]);
    expect(await store.delete('u1')).toBe(0);
    // None of its own: the Db's, majority, journaled and bounded (mongo-connection.ts `writeConcernOf`), applies.
    expect(concerns).toEqual([undefined, undefined, undefined, undefined, undefined]);
    await store.close();
  });

  it('sends the deletion of an upload again after a step-down refused it', async () => {
    const { db, rows } = collectionDouble(1);
    const store = new MongoUploadFiles(db);
    await store.put('u1', 'file', Buffer.from('a'));
    await store.put('u1', 'messages-x', Buffer.from('[]'));
    expect(await store.delete('u1')).toBe(2);
    expect([...rows.keys()]).toEqual([]);
  });
});
