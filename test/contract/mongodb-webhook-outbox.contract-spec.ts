/**
 * Runs the webhook outbox contract (test/contract/webhook-outbox.contract.ts; docs/change-feed.md
 * "Webhooks") against the MongoDB adapter when `MONGODB_URL` names a server. Each test gets its own
 * database, dropped in its cleanup; the outbox is opened on the read store's database as the
 * service opens it (`openWebhookOutbox`), and `reopen` connects another client to it (a restarted
 * process). Without `MONGODB_URL` the suite is reported as skipped, loudly: the adapter has then not
 * been run at all.
 */
import { MongoWebhookOutbox } from '@app/stores/mongodb';
import { describeWebhookOutboxContract } from './webhook-outbox.contract';
import { mongoUrlOrSkip, perTestDatabase } from '../support/mongo-suite';

const url = mongoUrlOrSkip('Webhook outbox contract: MongoWebhookOutbox', 'MongoDB webhook outbox contract suite');

if (url) {
  const fixture = perTestDatabase(url, 'who', async (readModel) => {
    const outbox = new MongoWebhookOutbox(readModel.database);
    await outbox.ensureIndexes();
    return outbox;
  });
  describeWebhookOutboxContract('MongoWebhookOutbox', async () => {
    const { store, reopen, cleanup } = await fixture();
    return { outbox: store, reopen, cleanup };
  });
}
