import { SqliteWebhookOutbox, type WebhookOutbox } from '@app/read-model';
import { WebhookDispatcher, WebhookOperations, type DispatcherLogger } from '@app/webhooks';
import { webhookHooks, type Metrics } from '@app/telemetry';
import type { AppConfig } from './config';
import type { Stores } from './stores';

/**
 * The webhook outbox of the configured stores (docs/change-feed.md "How deliveries are kept"): a
 * table set beside the SQLite read models, or collections in the MongoDB read store's database.
 */
export async function openWebhookOutbox(config: Pick<AppConfig, 'dataDir'>, stores: Stores): Promise<WebhookOutbox> {
  if (!stores.mongo) return SqliteWebhookOutbox.open(config.dataDir);
  const { MongoWebhookOutbox } = await import('@app/read-model/mongodb');
  const outbox = new MongoWebhookOutbox(stores.mongo.database);
  await outbox.ensureIndexes();
  return outbox;
}

/**
 * The webhook dispatcher the projecting process runs (the API with `PROJECTOR=in-process`, else
 * the projector process), configured from `config.webhooks`: deliveries to private, loopback and
 * link-local addresses are refused outside the sandbox (docs/change-feed.md "Where a webhook may
 * point"). With `metrics`, its attempts and disabled endpoints are counted.
 */
export function createWebhookDispatcher(
  config: AppConfig,
  stores: Stores,
  outbox: WebhookOutbox,
  logger: DispatcherLogger,
  metrics: Metrics | null = null,
): WebhookDispatcher {
  return new WebhookDispatcher(stores.eventStore, stores.readModel, outbox, logger, {
    ...config.webhooks,
    policy: { allowPrivate: config.appEnv === 'sandbox' },
    observer: metrics ? webhookHooks(metrics) : undefined,
  });
}

/**
 * The operator's webhook commands on the configured stores: `http://` URLs and private addresses
 * only in the sandbox (docs/change-feed.md "Where a webhook may point").
 */
export function webhookOperations(appEnv: AppConfig['appEnv'], stores: Stores): WebhookOperations {
  const sandbox = appEnv === 'sandbox';
  return new WebhookOperations(stores.eventStore, stores.readModel, { allowHttp: sandbox, allowPrivate: sandbox });
}
