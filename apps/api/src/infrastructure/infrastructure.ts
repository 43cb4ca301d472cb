import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { openSqliteEventStore, type EventStore } from '@app/event-store';
import { Projector, SqliteReadModel } from '@app/read-model';
import { ProviderOperations, TraineeCommands } from '@app/application';
import { APP_CONFIG, type AppConfig } from '../shared/config';
import { newResourceId } from '../shared/ids';

export const LOGGER = Symbol('LOGGER');

/**
 * The stores behind the API on the embedded default: the SQLite event store and read models in
 * `DATA_DIR`, and the projector running in-process (catch-up at start, then live). Closed in
 * order on shutdown: projector (applies what it holds), read models, event store.
 */
@Injectable()
export class Infrastructure implements OnModuleInit, OnApplicationShutdown {
  readonly eventStore: EventStore;
  readonly readModel: SqliteReadModel;
  readonly projector: Projector;
  readonly trainees: TraineeCommands;
  readonly providers: ProviderOperations;

  constructor(
    @Inject(APP_CONFIG) readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.eventStore = openSqliteEventStore(config.dataDir);
    this.readModel = SqliteReadModel.open(config.dataDir);
    this.projector = new Projector(this.eventStore, this.readModel, {
      error: (msg, ctx) => logger.error(ctx ?? {}, msg),
      warn: (msg, ctx) => logger.warn(ctx ?? {}, msg),
    });
    this.trainees = new TraineeCommands({
      eventStore: this.eventStore,
      readModel: this.readModel,
      waitForProjection: (position) => this.projector.waitFor(position),
      newId: () => newResourceId(),
    });
    this.providers = new ProviderOperations(this.eventStore, this.readModel);
  }

  async onModuleInit(): Promise<void> {
    const position = await this.projector.catchUp();
    await this.projector.start();
    this.logger.info({ checkpoint: position }, 'projections caught up; projector live');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.projector.stop();
    this.readModel.close();
    await this.eventStore.close();
  }
}
