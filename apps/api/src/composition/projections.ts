import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { laterPosition, LOG_START, type LogPosition, type ProjectionWaiter } from '@app/event-sourcing';
import { APP_CONFIG, exitOnFatal, messageFirst, type AppConfig, type ServiceKeyMaterial, type ProcessMetrics } from '@app/runtime/process';
import { openBackgroundWork, type BackgroundWork, type Stores } from '@app/composition';
import { inSpan, tracingEnabled } from '@app/runtime/tracing';
import { batchObserver, projectorHooks } from '@app/runtime/telemetry';
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
 * The projections behind the API (docs/DESIGN.md "Read models"): in-process, the projector (in the projection thread on the embedded
 * stores) and the background work beside it run here; external, writes wait for the stored checkpoint. A wait that times out is logged
 * and keeps `/readyz` not ready until the checkpoint reaches the write, which answers as usual.
 */
@Injectable()
export class Projections implements ProjectionWaiter, OnModuleInit, OnApplicationShutdown {
  /** Null when a projector process runs. */
  readonly projector: ProjectorHandle | null;
  private readonly waiter: ProjectionWaiter;
  /** Ms; tests shorten it. */
  waitTimeoutMs = 10_000;
  /** Of the latest write whose projection wait timed out. */
  private behindUntil = LOG_START;
  /** When the projector runs here, once it is live. */
  background: BackgroundWork | null = null;

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
    // A provider event drops the token cache; new changes wake the webhook dispatcher.
    const applied = (providerEvents: boolean) => {
      if (providerEvents) tokens.invalidate();
      this.background?.wake();
    };
    // Exit 1, so the supervisor restarts the process (docs/DESIGN.md "Failures of the subscription").
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
    this.waiter = this.projector ?? new CheckpointWaiter(stores.readModel);
  }

  /** After {@link waitTimeoutMs}, logs the position and keeps {@link readiness} not ready until it is reached; never rejects. */
  async waitFor(position: LogPosition, timeoutMs = this.waitTimeoutMs): Promise<boolean> {
    const wait = () => this.waiter.waitFor(position, timeoutMs);
    if (await (tracingEnabled() ? inSpan('projection.wait', wait) : wait())) return true;
    this.behindUntil = laterPosition(this.behindUntil, position);
    this.logger.error(
      { position, checkpoint: await this.checkpoint() },
      'a write is stored but its projection did not catch up in time; not ready until it does',
    );
    return false;
  }

  /** `assessReadiness` over storage faults, the in-process projector, the lag, timed-out waits and read store damage. */
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

  async checkpoint(): Promise<LogPosition> {
    return this.projector ? this.projector.checkpoint : this.stores.readModel.checkpoint();
  }

  /** In-process by projecting; external by waiting up to 10 s for the projector. */
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

  /** Null when the read store keeps no versions. */
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
    const parts = { logger: this.logger, serviceKey: this.serviceKey, metrics: this.metrics, projector: this.projector };
    this.background = await openBackgroundWork(this.config, this.stores, parts);
    await this.background.start();
    this.logger.info({ checkpoint: position }, 'projections caught up; projector live');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.background?.stop();
    await this.projector?.stop();
    await this.stores.close();
  }
}
