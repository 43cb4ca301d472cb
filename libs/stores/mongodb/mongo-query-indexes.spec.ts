/**
 * Which index serves each query the webhook outbox and the digest tree send, over a driver double
 * (no MongoDB server) that records the filter and sort of each call. The rule checked is the query
 * planner's as far as it matters here: an index is a candidate only when its key holds a field the
 * query filters or sorts on (a partial index's filter alone serves nothing); its partial filter must
 * be implied by the query's; its key must begin with the query's other equality fields, then its
 * sort (either direction). What the stores do on a server is their contract suites'
 * (test/contract/mongodb-*.contract-spec.ts, run when MONGODB_URL is set).
 */
import type { Db } from 'mongodb';
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

/** True when `index` can serve `query` by the rule of this file's doc. */
function serves(index: IndexSpec, query: SentQuery): boolean {
  const keyFields = Object.keys(index.key);
  const partial = index.partialFilterExpression ?? {};
  if (!Object.entries(partial).every(([field, value]) => query.filter[field] === value)) return false;
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
      createIndex: async (key: Record<string, 1 | -1>) => (indexes.set(name, [...(indexes.get(name) ?? []), { key }]), 'ok'),
      createIndexes: async (specs: IndexSpec[]) => (indexes.set(name, [...(indexes.get(name) ?? []), ...specs]), []),
    };
  };
  return { db: { collection } as unknown as Db, queries, indexes };
}

describe('MongoDB webhook outbox and digest tree: an index for each query (driver double)', () => {
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

  it('the rule finds what no index serves: a count on a partial filter alone, a filter on an unindexed field', () => {
    const partialOnly = WEBHOOK_DELIVERY_INDEXES.filter((i) => i.name !== 'pending_count');
    expect(partialOnly.some((i) => serves(i, { collection: 'd', filter: { status: 'pending' }, sort: {} }))).toBe(false);
    const withoutTrainee = WEBHOOK_DELIVERY_INDEXES.filter((i) => i.name !== 'by_trainee');
    expect(withoutTrainee.some((i) => serves(i, { collection: 'd', filter: { trainee_id: 'T1' }, sort: {} }))).toBe(false);
    expect(serves({ key: { g: 1, stream_id: 1 } }, { collection: 'h', filter: { g: 1 }, sort: { leaf_index: 1 } })).toBe(false);
  });
});
