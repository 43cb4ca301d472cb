import { PROJECTED_STREAMS, type ReadModelStore } from '@app/runtime/projector';
import { type WebhookOutbox, WebhookDispatcher, type DispatcherLogger } from '@app/webhooks/delivery';
import type { EventStore, StoredLog } from '@app/event-sourcing';
import { SealedSecrets, WebhookOperations } from '@app/webhooks/write';
import { webhookHooks, type Metrics } from '@app/runtime/telemetry';
import type { AppConfig } from './config';
import { CursorCodec } from '@app/changes';
import { liveKeysOf } from '@app/keys';
import { currentKeysOf, deriveKey, versionedKeys, type ServiceKeyMaterial } from './service-key';

/**
 * The webhook dispatcher the projecting process runs (the API with `PROJECTOR=in-process`, else
 * the projector process), configured from `config.webhooks`: deliveries to private, loopback and
 * link-local addresses are refused outside the sandbox (docs/change-feed.md "Where a webhook may
 * point"), each delivery's cursor sealed for its provider (docs/change-feed.md "Cursors") and
 * each endpoint's secret opened to sign, both with keys derived from `serviceKey`. With `metrics`,
 * its attempts and disabled endpoints are counted. It reads the log as stored (`storedLog`): it needs
 * the endpoints' own events and the positions of trainee events, never a trainee's values (those it
 * sends come from the change feed), so it opens no box and reads no data key (docs/DESIGN.md
 * "Personal data"); it records an endpoint it disables through the event store.
 */
export function createWebhookDispatcher(
  config: AppConfig,
  stores: { eventStore: EventStore; storedLog: StoredLog; readModel: ReadModelStore },
  outbox: WebhookOutbox,
  logger: DispatcherLogger,
  serviceKey: ServiceKeyMaterial,
  metrics: Metrics | null = null,
): WebhookDispatcher {
  return new WebhookDispatcher(stores, stores.readModel, outbox, logger, {
    ...config.webhooks,
    policy: { allowPrivate: config.appEnv === 'sandbox', ports: webhookPorts(config.appEnv, config.webhooks.ports ?? null) },
    projectedStreams: PROJECTED_STREAMS,
    cursors: cursorCodecOf(serviceKey),
    // Read again from the keyring file when a secret names a version not held: a rotation needs no restart.
    secrets: new SealedSecrets(versionedKeys(serviceKey, 'webhook-secrets'), currentKeysOf(config, 'webhook-secrets')),
    observer: metrics ? webhookHooks(metrics) : undefined,
  });
}

/**
 * The operator's webhook commands on the configured stores: `http://` URLs and private addresses
 * only in the sandbox, the ports of {@link webhookPorts} (`ports`: `WEBHOOK_PORTS` as
 * `parseWebhookPorts` read it, null when unset) (docs/change-feed.md "Where a webhook may
 * point"); secrets sealed with the key derived from `serviceKey`, or, given `keyringFile`, from
 * the keyring as that file holds it when each is sealed ({@link sealedSecretsOf}).
 */
export function webhookOperations(
  appEnv: AppConfig['appEnv'],
  stores: { eventStore: EventStore; readModel: ReadModelStore },
  serviceKey: ServiceKeyMaterial,
  ports: readonly number[] | null = null,
  keyringFile: string | null = null,
): WebhookOperations {
  const sandbox = appEnv === 'sandbox';
  return new WebhookOperations(
    stores.eventStore,
    stores.readModel,
    { allowHttp: sandbox, allowPrivate: sandbox, ports: webhookPorts(appEnv, ports) },
    sealedSecretsOf(serviceKey, keyringFile),
  );
}

/**
 * The ports a webhook target may use (docs/change-feed.md "Where a webhook may point"): the
 * operator's list (`WEBHOOK_PORTS`) when set; else 443 in production (plain `http://` is refused
 * there, so 80 never serves) and any port in the sandbox, whose local receivers listen where they
 * like.
 */
export function webhookPorts(appEnv: AppConfig['appEnv'], configured: readonly number[] | null): readonly number[] | null {
  if (configured) return configured;
  return appEnv === 'sandbox' ? null : [443];
}

/**
 * The webhook secrets' sealing of this process: the `webhook-secrets` keys of every version the
 * keyring holds (`versionedKeys`); given `keyringFile`, read again from it to open a secret of a
 * version not held and before each secret is sealed and stored (`SealedSecrets.sealing`).
 */
export function sealedSecretsOf(serviceKey: ServiceKeyMaterial, keyringFile: string | null = null): SealedSecrets {
  return new SealedSecrets(versionedKeys(serviceKey, 'webhook-secrets'), keyringFile ? liveKeysOf(keyringFile, 'webhook-secrets') : null);
}

/**
 * The change feed's cursor codec of this process: its key derived from the service key
 * (`loadServiceKey`, docs/operations.md "The service key"), so the API and the projector process
 * make and read the same cursors.
 */
export function cursorCodecOf(serviceKey: ServiceKeyMaterial): CursorCodec {
  return new CursorCodec(deriveKey(serviceKey, 'change-feed-cursors'));
}
