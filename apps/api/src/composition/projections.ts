import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { laterPosition, LOG_START, type LogPosition, type ProjectionWaiter } from '@app/event-sourcing';
import type { RegistryProcessManager } from '@app/registry';
import {
  APP_CONFIG,
  createRegistryProcess,
  createWebhookDispatcher,
  exitOnFatal,
  messageFirst,
  type AppConfig,
  type ServiceKeyMaterial,
  type ProcessMetrics,
} from '@app/runtime/process';
import type { Stores } from '@app/composition';
import { openDigestSchedule } from '@app/audit';
import { inSpan, tracingEnabled } from '@app/runtime/tracing';
import { batchObserver, observeProjections, projectorHooks } from '@app/runtime/telemetry';
import type { WebhookOutbox, WebhookDispatcher } from '@app/webhooks/delivery';
import {
  assessReadiness,
  CheckpointWaiter,
  measureLag,
  Projector,
  READ_MODELS_DAMAGED_REASON,
  ReadModelsDamaged,
  type ProjectionInfo,
  type ProjectorHandle,
  type Readiness,
} from '@app/runtime/projector';
import type { RebuildableStore } from '@app/runtime/rebuild';
import { LOGGER, METRICS, SERVICE_KEY, STORES } from './tokens';
import { CachedTokens } from './token-cache';
import { StorageFaults } from './storage-faults';
import { PROVIDER_STREAM_PREFIX } from '@app/providers/decider';

/**
 * The projections behind the API (docs/DESIGN.md "Read models"). With `PROJECTOR=in-process` the
 * projector and the registry process manager run in this process (catch-up at start, then live)
 * and writes wait for the projector: on the embedded stores the projector runs in the projection
 * thread, which also writes the log (docs/DESIGN.md "The projection thread"), elsewhere in this
 * thread. With `external` a projector process keeps the read models and writes wait for the stored
 * checkpoint (read-your-writes either way, docs/DESIGN.md property 1). A wait
 * that times out is logged at error and keeps `/readyz` not ready until the checkpoint reaches the
 * write (docs/operations.md "Health"); the write itself is durable and answers as usual. In-process,
 * the webhook dispatcher runs here too (docs/change-feed.md "Webhooks"). Stops them and closes the
 * stores at shutdown.
 */
@Injectable()
export class Projections implements ProjectionWaiter, OnModuleInit, OnApplicationShutdown {
  /**
   * The in-process projector (in the projection thread on the embedded stores), or null when a
   * projector process runs (`PROJECTOR=external`).
   */
  readonly projector: ProjectorHandle | null;
  private readonly registryProcess: RegistryProcessManager | null;
  private readonly waiter: ProjectionWaiter;
  /** How long a write waits for its projection before answering anyway, in ms (10 s; tests shorten it). */
  waitTimeoutMs = 10_000;
  /** Position of the latest write whose projection wait timed out (0: none). */
  private behindUntil = LOG_START;
  /** The webhook dispatcher and its outbox, when the projector runs here (docs/change-feed.md "Webhooks"). */
  private webhooks: { dispatcher: WebhookDispatcher; outbox: WebhookOutbox } | null = null;
  /** The audit digests signed on a schedule (`AUDIT_DIGEST_EVERY`), when the projector runs here and one is set. */
  digests: Awaited<ReturnType<typeof openDigestSchedule>> = null;

  constructor(
    @Inject(APP_CONFIG) readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(STORES) private readonly stores: Stores,
    tokens: CachedTokens,
    @Inject(METRICS) private readonly metrics: ProcessMetrics | null,
    @Inject(SERVICE_KEY) private readonly serviceKey: ServiceKeyMaterial,
    private readonly storageFaults: StorageFaults,
  ) {
    const inProcess = config.projector === 'in-process';
    // A token issued, revoked or used: the next request looks it up again. New changes in the feed:
    // the webhook dispatcher looks now rather than at its next poll.
    const applied = (providerEvents: boolean) => {
      if (providerEvents) tokens.invalidate();
      this.webhooks?.dispatcher.wake();
    };
    // The subscription cannot go on: exit 1, so the supervisor restarts the process (docs/DESIGN.md
    // "Failures of the subscription").
    const fatal = (error: Error) => exitOnFatal(logger, 'the projector cannot go on; exiting', error);
    const thread = inProcess ? stores.projectionThread : null;
    if (thread) {
      const observe = batchObserver(metrics?.metrics ?? null);
      thread.onApplied((batch) => {
        observe?.(batch);
        applied(batch.providerEvents);
      });
      thread.onFatal(fatal);
    }
    this.projector = thread
      ? thread
      : inProcess
        ? new Projector(stores.eventStore, stores.readModel, messageFirst(logger), {
            ...projectorHooks(metrics?.metrics ?? null),
            onFatal: fatal,
            onApplied: (events) => applied(events.some((e) => e.streamId.startsWith(PROVIDER_STREAM_PREFIX))),
          })
        : null;
    this.registryProcess = inProcess ? createRegistryProcess(config, stores, logger, metrics?.metrics ?? null) : null;
    if (inProcess && !this.registryProcess) logger.warn('no registry configured (REGISTRY_URL): TRNs and awards wait');
    this.waiter = this.projector ?? new CheckpointWaiter(stores.readModel);
  }

  /**
   * Resolves once the read models have applied every event up to `position` (global position),
   * or after {@link waitTimeoutMs}: then logs an error naming the position and keeps
   * {@link readiness} not ready until the checkpoint reaches it. Never rejects for a time-out.
   */
  async waitFor(position: LogPosition, timeoutMs = this.waitTimeoutMs): Promise<boolean> {
    const wait = () => this.waiter.waitFor(position, timeoutMs);
    // A span of its own when tracing is on (docs/observability.md "Traces").
    if (await (tracingEnabled() ? inSpan('projection.wait', wait) : wait())) return true;
    this.behindUntil = laterPosition(this.behindUntil, position);
    this.logger.error(
      { position, checkpoint: await this.checkpoint() },
      'a write is stored but its projection did not catch up in time; not ready until it does',
    );
    return false;
  }

  /**
   * What `/readyz` answers (see `assessReadiness`): ready or not and why, from a storage fault
   * (`StorageFaults`), this process's projector (when in-process), the lag against
   * READY_MAX_LAG_SECONDS, a write whose projection wait timed out, and damage found in the read
   * store (`ReadModelsDamaged`: a restart rebuilds it).
   */
  async readiness(): Promise<Readiness> {
    const checkpoint = await this.checkpoint().catch((err: unknown) => {
      if (err instanceof ReadModelsDamaged) return null;
      throw err;
    });
    if (checkpoint === null) return { ready: false, reasons: [READ_MODELS_DAMAGED_REASON] };
    if (checkpoint >= this.behindUntil) this.behindUntil = LOG_START;
    return assessReadiness({
      storedLog: this.stores.storedLog,
      projector: this.projector?.health() ?? null,
      checkpoint,
      maxLagSeconds: this.config.readyMaxLagSeconds,
      behindUntil: this.behindUntil,
      readModelsDamaged: this.stores.readModelsDamaged(),
      faults: await this.storageFaults.reasons(),
    });
  }

  /** The position of the last event applied to the read models. */
  async checkpoint(): Promise<LogPosition> {
    return this.projector ? this.projector.checkpoint : this.stores.readModel.checkpoint();
  }

  /** Brings the read models up to date (in-process: by projecting; external: by waiting up to 10 s for the projector). */
  async catchUp(): Promise<void> {
    if (this.projector) {
      await this.projector.catchUp();
      return;
    }
    const deadline = Date.now() + 10_000;
    while ((await measureLag(this.stores.storedLog, await this.stores.readModel.checkpoint())).events > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** The projections' versions, stores and checkpoints, when the read store keeps versions; null otherwise. */
  async projectionInfo(): Promise<ProjectionInfo[] | null> {
    const store = this.stores.readModel as Partial<RebuildableStore>;
    return typeof store.projectionInfo === 'function' ? store.projectionInfo() : null;
  }

  async onModuleInit(): Promise<void> {
    for (const p of (await this.projectionInfo()) ?? []) {
      if (p.rebuild_needed) {
        this.logger.warn(
          { projection: p.name, stored_version: p.version, code_version: p.code_version },
          'projection built by another version of the code; serving it until `admin projections rebuild` is run',
        );
      }
    }
    if (!this.projector) return;
    const position = await this.projector.catchUp();
    await this.projector.start();
    await this.registryProcess?.start();
    const outbox = await this.stores.webhookOutbox();
    const dispatcher = createWebhookDispatcher(
      this.config,
      this.stores,
      outbox,
      messageFirst(this.logger),
      this.serviceKey,
      this.metrics?.metrics,
    );
    this.webhooks = { dispatcher, outbox };
    if (this.metrics) {
      const parts = { projector: this.projector, registryProcess: this.registryProcess, webhookOutbox: outbox };
      observeProjections(this.metrics.metrics, { ...parts, storedLog: this.stores.storedLog, readModel: this.stores.readModel });
    }
    await dispatcher.start();
    // Scheduled digests belong with the projector (docs/DESIGN.md "Scheduled digests").
    this.digests = await openDigestSchedule(this.config, this.stores.auditLog(), this.logger);
    this.digests?.schedule.start();
    this.logger.info({ checkpoint: position }, 'projections caught up; projector live');
  }

  /** The in-process webhook dispatcher, or null when the projector runs in its own process. */
  get webhookDispatcher(): WebhookDispatcher | null {
    return this.webhooks?.dispatcher ?? null;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.digests?.close();
    await this.webhooks?.dispatcher.stop();
    await this.webhooks?.outbox.close();
    await this.registryProcess?.stop();
    await this.projector?.stop();
    await this.stores.close();
  }
}
