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
 * The dispatcher of the projecting process. Private targets are refused outside the sandbox (docs/change-feed.md "Where a webhook may
 * point"); it reads the log as stored, opening no box: what it sends comes from the change feed.
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
    // Read again from the keyring file for a version not held: a rotation needs no restart.
    secrets: new SealedSecrets(versionedKeys(serviceKey, 'webhook-secrets'), currentKeysOf(config, 'webhook-secrets')),
    observer: metrics ? webhookHooks(metrics) : undefined,
  });
}

/** `http://` and private addresses only in the sandbox; `ports` as `parseWebhookPorts` read it; `keyringFile` read again at each seal. */
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

/** `WEBHOOK_PORTS` when set; else 443 in production (plain `http://` is refused there) and any in the sandbox. */
export function webhookPorts(appEnv: AppConfig['appEnv'], configured: readonly number[] | null): readonly number[] | null {
  if (configured) return configured;
  return appEnv === 'sandbox' ? null : [443];
}

/** Every version's `webhook-secrets` keys; `keyringFile`, when given, read again for a version not held and before each seal. */
export function sealedSecretsOf(serviceKey: ServiceKeyMaterial, keyringFile: string | null = null): SealedSecrets {
  return new SealedSecrets(versionedKeys(serviceKey, 'webhook-secrets'), keyringFile ? liveKeysOf(keyringFile, 'webhook-secrets') : null);
}

/** Derived from the service key, so the API and the projector process make and read the same cursors. */
export function cursorCodecOf(serviceKey: ServiceKeyMaterial): CursorCodec {
  return new CursorCodec(deriveKey(serviceKey, 'change-feed-cursors'));
}
