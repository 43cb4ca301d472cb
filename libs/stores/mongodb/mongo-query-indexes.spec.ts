/**
 * Which index serves each query the webhook outbox, the digest tree and the data key store send, over a driver double
 * (no MongoDB server) that records the filter and sort of each call. The rule checked is the query
 * planner's as far as it matters here: an index is a candidate only when its key holds a field the
 * query filters or sorts on (a partial index's filter alone serves nothing); its partial filter must
 * be implied by the query's; its key must begin with the query's other equality fields, then its
 * sort (either direction). What the stores do on a server is their contract suites'
 * (test/contract/mongodb-*.contract-spec.ts, run when MONGODB_URL is set).
 */
import { MongoServerError, type Db } from 'mongodb';
import { MongoDataKeyStore } from './mongo-data-key-store';
import { MongoDigestTreeStore } from './mongo-digest-tree';
import { MongoWebhookOutbox, WEBHOOK_DELIVERY_INDEXES } from './mongo-webhook-outbox';

interface IndexSpec {
  key: Record<string, 1 | -1>;
  partialFilterExpression?: Record<string, unknown>;
}

interface SentQuery {
  collection: string;
  filter: Record<string, unknown>;
  sort: Record<string, 1 | -1>;
}

type Bound = { $gte?: unknown; $gt?: unknown };

/**
 * True when the query's condition on a field implies the partial filter's: the same value, or a lower bound (`$gte`, `$gt`) of
 * the same type at or above the filter's (the planner's rule for comparisons, MongoDB manual "Partial Indexes", "Query
 * Coverage"). Nothing implies a `$type` or `$exists` filter here.
 */
function implies(condition: unknown, filter: unknown): boolean {
  if (condition === filter) return true;
  if (typeof condition !== 'object' || condition === null || typeof filter !== 'object' || filter === null) return false;
  const [q, f] = [condition as Bound, filter as Bound];
  const onlyBounds = (b: object) => Object.keys(b).length === 1 && ('$gte' in b || '$gt' in b);
  if (!onlyBounds(q) || !onlyBounds(f)) return false;
  const [qValue, fValue] = [q.$gte ?? q.$gt, f.$gte ?? f.$gt];
  if (!(qValue instanceof Date && fValue instanceof Date))
    return typeof qValue === 'number' && typeof fValue === 'number' && implied(qValue, fValue);
  return implied(qValue.getTime(), fValue.getTime());
  function implied(qb: number, fb: number): boolean {
    return '$gt' in f && !('$gt' in q) ? qb > fb : qb >= fb;
  }
}

/** True when `index` can serve `query` by the rule of this file's doc. */
function serves(index: IndexSpec, query: SentQuery): boolean {
  const keyFields = Object.keys(index.key);
  const partial = index.partialFilterExpression ?? {};
  if (!Object.entries(partial).every(([field, value]) => implies(query.filter[field], value))) return false;
  const equality = Object.entries(query.filter)
    .filter(([field, value]) => typeof value !== 'object' && partial[field] !== value)
    .map(([field]) => field);
  const sortFields = Object.keys(query.sort);
  if (![...Object.keys(query.filter), ...sortFields].some((f) => keyFields.includes(f))) return false;
  const head = keyFields.slice(0, equality.length);
  if (!equality.every((f) => head.includes(f))) return false;
  const rest = keyFields.slice(equality.length, equality.length + sortFields.length);
  if (rest.join() !== sortFields.join()) return false;
  const sameWay = sortFields.every((f) => index.key[f] === query.sort[f]);
  const otherWay = sortFields.every((f) => index.key[f] === -query.sort[f]);
  return sameWay || otherWay;
}

/** A `Db` double whose collections record `find` (with its `sort`), `countDocuments` and `createIndex(es)`, answering as empty ones. */
function recordingDb() {
  const queries: SentQuery[] = [];
  const indexes = new Map<string, IndexSpec[]>();
  const collection = (name: string) => {
    const cursor = (filter: Record<string, unknown>) => {
      const query: SentQuery = { collection: name, filter, sort: {} };
      queries.push(query);
      const self = {
        sort: (sort: Record<string, 1 | -1>) => ((query.sort = sort), self),
        limit: () => self,
        toArray: async () => [],
      };
      return self;
    };
    return {
      find: cursor,
      findOne: async (filter: Record<string, unknown>) =>
        name === 'audit_digest' && filter._id === 'latest' ? { _id: 'latest', generation: 1, digest: {} } : null,
      countDocuments: async (filter: Record<string, unknown>) => (queries.push({ collection: name, filter, sort: {} }), 0),
      createIndex: async (key: Record<string, 1 | -1>, options: Omit<IndexSpec, 'key'> = {}) => (
        indexes.set(name, [...(indexes.get(name) ?? []), { key, ...options }]),
        'ok'
      ),
      createIndexes: async (specs: IndexSpec[]) => (indexes.set(name, [...(indexes.get(name) ?? []), ...specs]), []),
      dropIndex: async () => {
        throw new MongoServerError({ message: 'index not found (driver double)', code: 27 });
      },
    };
  };
  return { db: { collection } as unknown as Db, queries, indexes };
}

describe('MongoDB webhook outbox, digest tree and data keys: an index for each query (driver double)', () => {
  it('every query of pendingCount, nextDueAt, deliveries and forgetTrainee has an index of webhook_deliveries', async () => {
    const { db, queries, indexes } = recordingDb();
    const outbox = new MongoWebhookOutbox(db);
    await outbox.ensureIndexes();
    await outbox.pendingCount();
    await outbox.nextDueAt();
    await outbox.deliveries('E1', 10);
    await outbox.forgetTrainee('T1');
    expect(queries).toHaveLength(4);
    for (const query of queries) {
      expect({ query, served: indexes.get(query.collection)!.some((i) => serves(i, query)) }).toEqual({ query, served: true });
    }
  });

  it('the digest tree reads its heads in leaf order on an index', async () => {
    const { db, queries, indexes } = recordingDb();
    const store = new MongoDigestTreeStore(db);
    await store.ensureIndexes();
    await store.heads();
    expect(queries).toEqual([{ collection: 'audit_digest_heads', filter: { g: 1 }, sort: { leaf_index: 1 } }]);
    expect(indexes.get('audit_digest_heads')!.some((i) => serves(i, queries[0]))).toBe(true);
  });

  it('the erasures read since a mark (data_keys) has its partial index, which a $type filter would not give it', async () => {
    const { db, queries, indexes } = recordingDb();
    const store = new MongoDataKeyStore(db);
    await store.erasedSince(Date.now() - 5_000);
    expect(queries).toHaveLength(1);
    expect(queries[0].filter.erasedAt).toEqual({ $gte: expect.any(Date) });
    const [index] = indexes.get('data_keys')!;
    expect(serves(index, queries[0])).toBe(true);
    expect(serves({ ...index, partialFilterExpression: { erasedAt: { $type: 'date' } } }, queries[0])).toBe(false);
  });

  it('the rule finds what no index serves: a count on a partial filter alone, a filter on an unindexed field', () => {
    const partialOnly = WEBHOOK_DELIVERY_INDEXES.filter((i) => i.name !== 'pending_count');
    expect(partialOnly.some((i) => serves(i, { collection: 'd', filter: { status: 'pending' }, sort: {} }))).toBe(false);
    const withoutTrainee = WEBHOOK_DELIVERY_INDEXES.filter((i) => i.name !== 'by_trainee');
    expect(withoutTrainee.some((i) => serves(i, { collection: 'd', filter: { trainee_id: 'T1' }, sort: {} }))).toBe(false);
    expect(serves({ key: { g: 1, stream_id: 1 } }, { collection: 'h', filter: { g: 1 }, sort: { leaf_index: 1 } })).toBe(false);
  });
});
