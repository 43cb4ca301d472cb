/**
 * The rate limiter's MongoDB window counter (libs/stores/mongodb/mongo-window-counter.ts), run
 * when `MONGODB_URL` names a server, on a database of its own dropped afterwards. Without
 * `MONGODB_URL` the suite is reported as skipped, loudly: the counter has then not been run at all.
 */
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoWindowCounter } from '@app/stores/mongodb';
import { mongoUrlOrSkip } from '../support/mongo-suite';

const url = mongoUrlOrSkip('MongoWindowCounter', 'MongoDB rate-limit window counter');

if (url) {
  describe('MongoWindowCounter (one count across API replicas)', () => {
    const dbName = `rlw_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    const clients = [new MongoClient(url), new MongoClient(url)];
    const t0 = Date.UTC(2026, 0, 5, 12, 0, 0);
    afterAll(async () => {
      await clients[0].db(dbName).dropDatabase();
      await Promise.all(clients.map((c) => c.close()));
    });

    it('counts each key per fixed window, shared by two replicas, first hits at once included', async () => {
      const [a, b] = clients.map((c) => new MongoWindowCounter(c.db(dbName)));
      const first = await Promise.all([a.hit('ip:1', 60_000, t0 + 5), b.hit('ip:1', 60_000, t0 + 7)]);
      expect(first.map((r) => r.count).sort()).toEqual([1, 2]);
      expect(await b.hit('ip:1', 60_000, t0 + 59_999)).toEqual({ count: 3, windowEndMs: t0 + 60_000 });
      expect(await a.hit('ip:2', 60_000, t0 + 10)).toEqual({ count: 1, windowEndMs: t0 + 60_000 });
      expect(await a.hit('ip:1', 60_000, t0 + 60_000)).toEqual({ count: 1, windowEndMs: t0 + 120_000 });
      const indexes = await clients[0].db(dbName).collection('rate_limit_windows').indexes();
      expect(indexes.some((i) => i.expireAfterSeconds === 0 && i.key.expires_at === 1)).toBe(true);
    });
  });
}
