import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { EventStore } from '@app/event-store';
import {
  CheckpointWaiter,
  measureLag,
  Projector,
  type ProjectionInfo,
  type ReadModelStore,
  type RebuildableStore,
  type SchoolDirectory,
} from '@app/read-model';
import { createRegistry, ProviderOperations, RegistryProcessManager, TraineeCommands } from '@app/application';
import { openStores, type Stores } from '@app/platform';
import { type AppConfig } from '@app/platform';
import { newResourceId } from '../shared/ids';

export const LOGGER = Symbol('LOGGER');

/**
 * The stores behind the API (SQLite in `DATA_DIR` by default; EventStoreDB and MongoDB when their
 * URLs are set) and the write use cases on them. With `PROJECTOR=in-process` the projector runs
 * here (catch-up at start, then live) and writes wait for it; with `external` a projector process
 * keeps the read models and writes wait for the stored checkpoint (read-your-writes either way).
 */
@Injectable()
export class Infrastructure implements OnModuleInit, OnApplicationShutdown {
  readonly eventStore: EventStore;
  readonly readModel: ReadModelStore;
  readonly schools: SchoolDirectory;
  readonly projector: Projector | null;
  /** The registry process manager, run wherever the projector runs (here when in-process). */
  readonly registryProcess: RegistryProcessManager | null;
  readonly trainees: TraineeCommands;
  readonly providers: ProviderOperations;

  private constructor(
    readonly config: AppConfig,
    private readonly logger: Logger,
    private readonly stores: Stores,
  ) {
    this.eventStore = stores.eventStore;
    this.readModel = stores.readModel;
    this.projector =
      config.projector === 'in-process'
        ? new Projector(this.eventStore, this.readModel, {
            error: (msg, ctx) => logger.error(ctx ?? {}, msg),
            warn: (msg, ctx) => logger.warn(ctx ?? {}, msg),
          })
        : null;
    const registry = config.projector === 'in-process' ? createRegistry(config) : null;
    this.registryProcess = registry
      ? new RegistryProcessManager(this.eventStore, this.readModel, registry, {
          info: (msg, ctx) => logger.info(ctx ?? {}, msg),
          warn: (msg, ctx) => logger.warn(ctx ?? {}, msg),
          error: (msg, ctx) => logger.error(ctx ?? {}, msg),
        })
      : null;
    if (config.projector === 'in-process' && !registry) logger.warn('no registry configured (REGISTRY_URL): TRNs and awards wait');
    const waiter = this.projector ?? new CheckpointWaiter(this.readModel);
    this.schools = stores.schools;
    this.trainees = new TraineeCommands({
      eventStore: this.eventStore,
      readModel: this.readModel,
      schools: stores.schools,
      waitForProjection: (position) => waiter.waitFor(position),
      newId: () => newResourceId(),
    });
    this.providers = new ProviderOperations(this.eventStore, this.readModel);
  }

  /** Opens the configured stores (raises `StoreUnavailable` when one cannot be reached). */
  static async create(config: AppConfig, logger: Logger): Promise<Infrastructure> {
    const stores = await openStores(config);
    logger.info({ backends: stores.backends, projector: config.projector }, 'stores open');
    return new Infrastructure(config, logger, stores);
  }

  /** Brings the read models up to date (in-process: by projecting; external: by waiting for the projector). */
  async catchUp(): Promise<void> {
    if (this.projector) {
      await this.projector.catchUp();
      return;
    }
    const deadline = Date.now() + 10_000;
    while ((await measureLag(this.eventStore, await this.readModel.checkpoint())).events > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** The projections' versions, stores and checkpoints, when the read store keeps versions (SQLite). */
  async projectionInfo(): Promise<ProjectionInfo[] | null> {
    const store = this.readModel as Partial<RebuildableStore>;
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
    this.logger.info({ checkpoint: position }, 'projections caught up; projector live');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.registryProcess?.stop();
    await this.projector?.stop();
    await this.stores.close();
  }
}
