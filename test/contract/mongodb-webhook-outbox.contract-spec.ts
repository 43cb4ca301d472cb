/**
 * Runs the webhook outbox contract (test/contract/webhook-outbox.contract.ts) against the MongoDB
 * adapter when `MONGODB_URL` names a server; each test gets its own database, dropped in its
 * cleanup. Without `MONGODB_URL` the suite is reported as skipped, loudly: the adapter has then not
 * been run at all.
 */
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoWebhookOutbox } from '@app/read-model/mongodb';
import { describeWebhookOutboxContract } from './webhook-outbox.contract';
import { mongoUrlOrSkip } from '../support/mongo-suite';

const url = mongoUrlOrSkip('Webhook outbox contract: MongoWebhookOutbox', 'MongoDB webhook outbox contract suite');

if (url) {
  const runId = `who_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  let tests = 0;

  describeWebhookOutboxContract('MongoWebhookOutbox', async () => {
    const dbName = `${runId}_${++tests}`;
    const clients = [new MongoClient(url), new MongoClient(url)];
    const outbox = new MongoWebhookOutbox(clients[0].db(dbName));
    await outbox.ensureIndexes();
    return {
      outbox,
      reopen: async () => new MongoWebhookOutbox(clients[1].db(dbName)),
      cleanup: async () => {
        try {
          await clients[0].db(dbName).dropDatabase();
        } finally {
          for (const c of clients) await c.close();
        }
      },
    };
  });
}
