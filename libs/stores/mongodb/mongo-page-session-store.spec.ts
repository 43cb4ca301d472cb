/**
 * `MongoPageSessionStore` over a driver double (no MongoDB server here): the page session store contract
 * (test/contract/page-session-store.contract.ts) run against a collection that answers the calls the adapter makes as the server
 * would, plus the indexes it asks for. The double follows the server's query semantics for what the adapter sends: equality on fields,
 * `$lte`/`$gt` on dates, `findOneAndDelete` taking the first by `sort`, `insertOne` refusing a held `_id` with code 11000
 * (MongoServerError, as `mongodb/lib/operations/insert.js` surfaces the server's write error), the counts of `countDocuments`, and
 * `aggregate`'s `$match`, `$group` (`$sum: 1`, `$min`) and `$sort` stages. On a server the same suite runs from
 * test/contract/mongodb-page-session-store.contract-spec.ts when MONGODB_URL is set.
 */
import { MongoServerError, ObjectId, type Db } from 'mongodb';
import { describePageSessionStoreContract } from '../../../test/contract/page-session-store.contract';
import { MongoPageSessionStore, PAGE_SESSIONS_COLLECTION } from './mongo-page-session-store';

type Doc = Record<string, unknown>;
type Filter = Record<string, unknown>;

const comparable = (v: unknown): number | string =>
  v instanceof Date ? v.getTime() : v instanceof ObjectId ? v.toHexString() : (v as number | string);

function matches(doc: Doc, filter: Filter): boolean {
  return Object.entries(filter).every(([field, want]) => {
    const have = comparable(doc[field]);
    if (want && typeof want === 'object' && !(want instanceof Date) && !(want instanceof ObjectId)) {
      const ops = want as Record<string, unknown>;
      if ('$lte' in ops && !(have <= comparable(ops.$lte))) return false;
      if ('$gt' in ops && !(have > comparable(ops.$gt))) return false;
      return true;
    }
    return have === comparable(want);
  });
}

const byFields = (sort: Record<string, 1 | -1>) => (x: Doc, y: Doc) => {
  for (const [field, dir] of Object.entries(sort)) {
    const [a, b] = [comparable(x[field]), comparable(y[field])];
    if (a !== b) return (a < b ? -1 : 1) * dir;
  }
  return 0;
};

/** One collection's documents, shared by every `Db` double made over it (another replica's client). */
function collectionDouble() {
  const docs = new Map<string, Doc>();
  const indexes: unknown[] = [];
  const all = (filter: Filter) => [...docs.values()].filter((d) => matches(d, filter));
  const collection = {
    createIndex: async (keys: unknown, options: unknown) => (indexes.push([keys, options]), 'index'),
    countDocuments: async (filter: Filter) => all(filter).length,
    findOne: async (filter: Filter) => structuredClone(all(filter)[0] ?? null),
    insertOne: async (doc: Doc) => {
      const id = doc._id as string;
      if (docs.has(id)) throw new MongoServerError({ message: 'E11000 duplicate key error (driver double)', code: 11000 });
      docs.set(id, { ...doc });
      return { acknowledged: true, insertedId: id };
    },
    updateOne: async (filter: Filter, update: { $set: Doc }) => {
      const doc = all(filter)[0];
      if (doc) Object.assign(doc, update.$set);
      return { matchedCount: doc ? 1 : 0, modifiedCount: doc ? 1 : 0 };
    },
    deleteOne: async (filter: Filter) => {
      const doc = all(filter)[0];
      return { deletedCount: doc && docs.delete(doc._id as string) ? 1 : 0 };
    },
    deleteMany: async (filter: Filter) => {
      let deletedCount = 0;
      for (const doc of all(filter)) if (docs.delete(doc._id as string)) deletedCount++;
      return { deletedCount };
    },
    findOneAndDelete: async (filter: Filter, options: { sort: Record<string, 1 | -1> }) => {
      const doc = all(filter).sort(byFields(options.sort))[0] ?? null;
      if (doc) docs.delete(doc._id as string);
      return doc;
    },
    aggregate: (pipeline: [{ $match: Filter }, { $group: { _id: string } }, { $sort: Record<string, 1 | -1> }]) => ({
      toArray: async () => {
        const groups = new Map<unknown, { _id: unknown; held: number; first: ObjectId }>();
        const key = pipeline[1].$group._id.slice(1);
        for (const doc of all(pipeline[0].$match)) {
          const g = groups.get(doc[key]) ?? { _id: doc[key], held: 0, first: doc.added as ObjectId };
          g.held++;
          if (comparable(doc.added) < comparable(g.first)) g.first = doc.added as ObjectId;
          groups.set(doc[key], g);
        }
        return [...groups.values()].sort(byFields(pipeline[2].$sort));
      },
    }),
  };
  const names: string[] = [];
  const db = () => ({ collection: (name: string) => (names.push(name), collection) }) as unknown as Db;
  return { db, docs, indexes, names };
}

describePageSessionStoreContract('MongoPageSessionStore (driver double)', async () => {
  const double = collectionDouble();
  return {
    store: new MongoPageSessionStore(double.db()),
    reopen: async () => new MongoPageSessionStore(double.db()),
    cleanup: async () => {},
  };
});

describe('MongoPageSessionStore (driver double)', () => {
  it('keeps sessions in page_sessions with a TTL index on expires_at, and stores the id’s hash as given, nothing more', async () => {
    const double = collectionDouble();
    const store = new MongoPageSessionStore(double.db());
    await store.add(
      { key: 'hash-1', pool: 'anonymous', owner: '192.0.2.1', data: '{}', startedAt: 1, expiresAt: 2 },
      { perOwner: 1, all: 1 },
      0,
    );
    expect(double.names.every((n) => n === PAGE_SESSIONS_COLLECTION)).toBe(true);
    expect(double.indexes).toContainEqual([{ expires_at: 1 }, { expireAfterSeconds: 0 }]);
    expect(Object.keys(double.docs.get('hash-1')!).sort()).toEqual(['_id', 'added', 'data', 'expires_at', 'owner', 'pool', 'started_at']);
    expect(double.docs.get('hash-1')!.expires_at).toEqual(new Date(2));
  });
});
