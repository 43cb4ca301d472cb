/**
 * Runs the window counter contract (test/contract/window-counter.contract.ts) against the rate
 * limiter's MongoDB counter (libs/stores/mongodb/mongo-window-counter.ts) when `MONGODB_URL` names
 * a server, each test on a database of its own dropped afterwards, `another` on a second client (as
 * another API replica); and checks the TTL index it makes. Without `MONGODB_URL` the suite is
 * reported as skipped, loudly: the counter has then not been run at all.
 */
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoWindowCounter } from '@app/stores/mongodb';
import { describeWindowCounterContract } from './window-counter.contract';
import { mongoUrlOrSkip } from '../support/mongo-suite';

const url = mongoUrlOrSkip('MongoWindowCounter', 'MongoDB rate-limit window counter');

if (url) {
  const runId = `rlw_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  let tests = 0;
  const open = async () => {
    const dbName = `${runId}_${++tests}`;
    const clients = [new MongoClient(url)];
    return {
      dbName,
      clients,
      counter: new MongoWindowCounter(clients[0].db(dbName)),
      another: async () => {
        const client = new MongoClient(url);
        clients.push(client);
        return new MongoWindowCounter(client.db(dbName));
      },
      cleanup: async () => {
        await clients[0].db(dbName).dropDatabase();
        await Promise.all(clients.map((c) => c.close()));
      },
    };
  };

  describeWindowCounterContract('MongoWindowCounter', open, true);

  describe('MongoWindowCounter (its TTL index)', () => {
    it('removes past windows by a TTL index on expires_at', async () => {
      const fx = await open();
      try {
        await fx.counter.hit('ip:1', 60_000, Date.now());
        const indexes = await fx.clients[0].db(fx.dbName).collection('rate_limit_windows').indexes();
        expect(indexes.some((i) => i.expireAfterSeconds === 0 && i.key.expires_at === 1)).toBe(true);
      } finally {
        await fx.cleanup();
      }
    });
  });
}
