/**
 * The TTL index of the idempotency keys and of the rate-limit windows, over a driver double (no
 * MongoDB server): a `Db` whose collection's `createIndex` fails the first time, as it does when
 * the primary steps down at start. The failure reaches the calls of that moment only; the next
 * call creates the index and goes on. What the stores do on a server is their contract suites'
 * (test/contract/mongodb-*.contract-spec.ts, run when MONGODB_URL is set).
 */
import type { Db } from 'mongodb';
import { MongoIdempotencyStore } from './mongo-idempotency-store';
import { untilDone } from './mongo-connection';
import { MongoWindowCounter } from './mongo-window-counter';

/** A collection double: `createIndex` fails its first `failures` calls; the writes answer as an empty collection does. */
function dbFailingIndexes(failures: number) {
  const calls = { createIndex: 0, writes: 0 };
  const collection = {
    createIndex: async () => {
      calls.createIndex++;
      if (calls.createIndex <= failures) throw new Error('not primary (driver double)');
      return 'expires_1';
    },
    deleteOne: async () => ({ deletedCount: 0 }),
    insertOne: async () => (calls.writes++, { insertedId: 'x' }),
    findOneAndUpdate: async () => (calls.writes++, { count: 1 }),
  };
  return { db: { collection: () => collection } as unknown as Db, calls };
}

describe('untilDone', () => {
  it('shares one run among the calls made while it runs, runs again after a failure, never after a success', async () => {
    let runs = 0;
    let fail = true;
    const step = untilDone(async () => {
      runs++;
      await new Promise((r) => setImmediate(r));
      if (fail) throw new Error('failed');
    });
    const first = await Promise.allSettled([step(), step()]);
    expect(first.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(runs).toBe(1);
    fail = false;
    await Promise.all([step(), step()]);
    await step();
    expect(runs).toBe(2);
  });
});

describe('TTL index created again after a failure at start (driver double)', () => {
  it('MongoIdempotencyStore: a claim after the failed one creates the index and claims', async () => {
    const { db, calls } = dbFailingIndexes(1);
    const store = new MongoIdempotencyStore(db);
    const now = new Date();
    await expect(store.claim('tok1', 'k1', 'fp1', now)).rejects.toThrow('not primary');
    expect(calls.writes).toBe(0);
    expect((await store.claim('tok1', 'k2', 'fp1', now)).outcome).toBe('claimed');
    expect((await store.claim('tok1', 'k3', 'fp1', now)).outcome).toBe('claimed');
    expect(calls).toEqual({ createIndex: 2, writes: 2 });
  });

  it('MongoWindowCounter: a hit after the failed one creates the index and counts', async () => {
    const { db, calls } = dbFailingIndexes(1);
    const counter = new MongoWindowCounter(db);
    await expect(counter.hit('ip:1', 60_000, 1_000)).rejects.toThrow('not primary');
    expect(await counter.hit('ip:1', 60_000, 1_000)).toEqual({ count: 1, windowEndMs: 60_000 });
    await counter.hit('ip:1', 60_000, 2_000);
    expect(calls).toEqual({ createIndex: 2, writes: 2 });
  });
});
