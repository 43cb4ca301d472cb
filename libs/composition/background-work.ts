import type { Logger } from 'pino';
import { loadAuditSigningKey, openDigestSchedule } from '@app/audit';
import { BackupSchedule, observeBackups } from '@app/backup';
import type { RegistryProcessManager } from '@app/registry';
import type { ProjectorHandle } from '@app/runtime/projector';
import {
  createRegistryProcess,
  createWebhookDispatcher,
  messageFirst,
  type AppConfig,
  type ProcessMetrics,
  type ServiceKeyMaterial,
} from '@app/runtime/process';
import { observeProjections } from '@app/runtime/telemetry';
import type { WebhookDispatcher, WebhookOutbox } from '@app/webhooks/delivery';
import { embeddedBackups } from './embedded-tools';
import type { Stores } from './stores';

/** `AUDIT_DIGEST_EVERY`'s schedule, as `openDigestSchedule` opens it. */
type DigestSchedule = NonNullable<Awaited<ReturnType<typeof openDigestSchedule>>>;

/**
 * What the process that projects runs beside the projector (docs/DESIGN.md "Read models"): the registry process manager, the webhook
 * dispatcher over its outbox, scheduled digests and scheduled backups. The API builds it when it projects in-process, the projector
 * process always; built by {@link openBackgroundWork}, started once the projector is live, stopped before the stores close.
 */
export class BackgroundWork {
  constructor(
    readonly registryProcess: RegistryProcessManager | null,
    readonly dispatcher: WebhookDispatcher,
    private readonly outbox: WebhookOutbox,
    /** Null without `AUDIT_DIGEST_EVERY`. */
    readonly digests: DigestSchedule | null,
    /** Null without `BACKUP_EVERY`. */
    readonly backups: BackupSchedule | null,
  ) {}

  async start(): Promise<void> {
    await this.registryProcess?.start();
    await this.dispatcher.start();
    this.digests?.schedule.start();
    this.backups?.start();
  }

  /** New changes are in the read models: the dispatcher looks for deliveries now rather than at its next poll. */
  wake(): void {
    this.dispatcher.wake();
  }

  /** Each part finishes its run in hand and stores its checkpoint; the stores stay open. */
  async stop(): Promise<void> {
    await this.digests?.close();
    await this.backups?.stop();
    await this.dispatcher.stop();
    await this.outbox.close();
    await this.registryProcess?.stop();
  }
}

/**
 * The background work for `config` over `stores`, not started; its metrics observed on `metrics` beside `projector`'s. A signing key
 * that cannot be read (digests or backups) throws here, so the process does not start. Logs a warning without `REGISTRY_URL`.
 */
export async function openBackgroundWork(
  config: AppConfig,
  stores: Stores,
  parts: { logger: Logger; serviceKey: ServiceKeyMaterial; metrics: ProcessMetrics | null; projector: ProjectorHandle | null },
): Promise<BackgroundWork> {
  const { logger, serviceKey } = parts;
  const metrics = parts.metrics?.metrics ?? null;
  const registryProcess = createRegistryProcess(config, stores, logger, metrics);
  if (!registryProcess) logger.warn('no registry configured (REGISTRY_URL): TRNs and awards wait');
  const outbox = await stores.webhookOutbox();
  const dispatcher = createWebhookDispatcher(config, stores, outbox, messageFirst(logger), serviceKey, metrics);
  const digests = await openDigestSchedule(config, stores.auditLog(), logger);
  const backups = backupSchedule(config, serviceKey, logger);
  if (metrics) {
    observeProjections(metrics, {
      storedLog: stores.storedLog,
      readModel: stores.readModel,
      projector: parts.projector,
      registryProcess,
      webhookOutbox: outbox,
      webhookDispatcher: dispatcher,
    });
    if (backups && config.backups) observeBackups(metrics, backups, config.backups.everyMs);
  }
  return new BackgroundWork(registryProcess, dispatcher, outbox, digests, backups);
}

/** `BACKUP_EVERY`'s schedule over the embedded stores; null when unset. */
function backupSchedule(config: AppConfig, serviceKey: ServiceKeyMaterial, logger: Logger): BackupSchedule | null {
  const files = embeddedBackups(config);
  if (!config.backups || !files) return null;
  const { dir, everyMs, keep, signingKeyFile } = config.backups;
  const signingKey = signingKeyFile ? loadAuditSigningKey({ dataDir: config.dataDir, signingKeyFile, production: true }).privateKey : null;
  return new BackupSchedule({ files, dataDir: config.dataDir, dir, everyMs, keep, serviceKey, signingKey }, logger);
}
