/**
 * Runs the webhook outbox contract (test/contract/webhook-outbox.contract.ts; docs/change-feed.md
 * "Webhooks") against the MongoDB adapter when `MONGODB_URL` names a server. Each test gets its own
 * database, dropped in its cleanup; the outbox is opened on the read store's database as the
 * service opens it (`openWebhookOutbox`), and `reopen` connects another client to it (a restarted
 * process). Without `MONGODB_URL` the suite is reported as skipped, loudly: the adapter has then not
 * been run at all.
 */
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoReadModel, MongoWebhookOutbox } from '@app/stores/mongodb';
import { describeWebhookOutboxContract } from './webhook-outbox.contract';
import { mongoUrlOrSkip } from '../support/mongo-suite';

const url = mongoUrlOrSkip('Webhook outbox contract: MongoWebhookOutbox', 'MongoDB webhook outbox contract suite');

if (url) {
  /** Unique per run (database names are limited to 63 bytes). */
  const runId = `who_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  let tests = 0;

  describeWebhookOutboxContract('MongoWebhookOutbox', async () => {
    const dbName = `${runId}_${++tests}`;
    const opened: MongoReadModel[] = [];
    const open = async (): Promise<MongoWebhookOutbox> => {
      const readModel = await MongoReadModel.connect(url, { dbName });
      opened.push(readModel);
      const outbox = new MongoWebhookOutbox(readModel.database);
      await outbox.ensureIndexes();
      return outbox;
    };
    return {
      outbox: await open(),
      reopen: open,
      cleanup: async () => {
        for (const rm of opened) await rm.close();
        const admin = new MongoClient(url);
        try {
          await admin.db(dbName).dropDatabase();
        } finally {
          await admin.close();
        }
      },
    };
  });
}
