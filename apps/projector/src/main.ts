import './tracing';
import 'reflect-metadata';
import { Inject, Module, type DynamicModule, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import pino, { type Logger } from 'pino';
import {
  APP_CONFIG,
  ConfigError,
  exitOnFatal,
  exitOnSignal,
  keepNewFilesPrivate,
  loadConfig,
  messageFirst,
  serviceKeyOf,
  personalDataOptions,
  processMetrics,
  type AppConfig,
} from '@app/runtime/process';
import {
  openBackgroundWork,
  openStores,
  READ_STORE_CHECK_WAIT_MS,
  StoreUnavailable,
  type BackgroundWork,
  type Stores,
} from '@app/composition';
import { SigningKeyUnavailable } from '@app/audit';
import { Projector } from '@app/runtime/projector';
import { projectorHooks, type MetricsServer } from '@app/runtime/telemetry';
import { HealthController, PROJECTOR, STORES } from './health.controller';

/** Starts the projector and the background work at boot; on shutdown each stores its checkpoint. */
class ProjectorLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(PROJECTOR) private readonly projector: Projector,
    @Inject(STORES) private readonly stores: Stores,
    private readonly logger: Logger,
    private readonly background: BackgroundWork,
    private readonly metricsServer: MetricsServer | null,
  ) {}

  async onModuleInit(): Promise<void> {
    const checkpoint = await this.projector.catchUp();
    await this.projector.start();
    await this.background.start();
    const registry = this.background.registryProcess !== null;
    this.logger.info({ checkpoint, backends: this.stores.backends, registry }, 'projector caught up; live');
  }

  async onApplicationShutdown(signal?: string): Promise<void> {
    await this.background.stop();
    await this.projector.stop();
    this.logger.info({ signal, checkpoint: this.projector.checkpoint, events_applied: this.projector.eventsApplied }, 'projector stopped');
    await this.metricsServer?.close();
    await this.stores.close();
  }
}

@Module({})
class ProjectorModule {
  static forRoot(
    config: AppConfig,
    stores: Stores,
    projector: Projector,
    logger: Logger,
    background: BackgroundWork,
    metricsServer: MetricsServer | null,
  ): DynamicModule {
    return {
      module: ProjectorModule,
      controllers: [HealthController],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: STORES, useValue: stores },
        { provide: PROJECTOR, useValue: projector },
        {
          provide: ProjectorLifecycle,
          useFactory: () => new ProjectorLifecycle(projector, stores, logger, background, metricsServer),
        },
      ],
    };
  }
}

/**
 * The projector as its own process: read models, registry process manager and webhook dispatcher, `/healthz` and `/readyz` on `PORT`,
 * metrics and traces when configured (docs/observability.md); on SIGTERM or SIGINT it finishes its batch, stores the checkpoint, exits 0.
 */
export async function startProjector(config: AppConfig, logger: Logger): Promise<NestFastifyApplication> {
  // The service key first (docs/operations.md "The service key"): the API must read the cursors this process's webhooks carry.
  const serviceKey = serviceKeyOf(config, logger);
  const metrics = processMetrics(config, ['projector'], logger);
  const stores = await openStores(config, {
    metrics: metrics?.metrics,
    logger,
    personalData: personalDataOptions(config, serviceKey),
    hashChain: config.hashChain,
    // A damaged embedded read store is moved aside and built afresh (docs/operations.md "Health").
    readStoreCheck: { waitMs: READ_STORE_CHECK_WAIT_MS },
  });
  const projector = new Projector(stores.eventStore, stores.readModel, messageFirst(logger), {
    ...projectorHooks(metrics?.metrics ?? null),
    // Exit 1, so the supervisor restarts the process (docs/DESIGN.md "Failures of the subscription").
    onFatal: (error) => exitOnFatal(logger, 'the projector cannot go on; exiting', error),
  });
  // A bad signing key (digests, backups) stops the start here.
  const background = await openBackgroundWork(config, stores, { logger, serviceKey, metrics, projector });
  // Metrics listen from the start, so a long catch-up can be watched (docs/observability.md "Metrics").
  const metricsServer = metrics ? await metrics.listen() : null;
  if (metricsServer) logger.info({ port: metricsServer.port }, 'metrics listening');
  const app = await NestFactory.create<NestFastifyApplication>(
    ProjectorModule.forRoot(config, stores, projector, logger, background, metricsServer),
    new FastifyAdapter(),
    {
      logger: ['error', 'warn'],
    },
  );
  await app.listen({ port: config.port, host: config.host });
  const address = app.getHttpServer().address();
  logger.info({ port: typeof address === 'object' && address ? address.port : config.port }, 'projector health endpoints listening');
  return app;
}

if (require.main === module) {
  keepNewFilesPrivate();
  let config: AppConfig;
  try {
    config = loadConfig(process.env, { port: 3001 });
  } catch (err) {
    process.stderr.write(`${err instanceof ConfigError ? err.message : String(err)}\n`);
    process.exit(2);
  }
  const logger = pino({ level: config.logLevel, base: { service: 'trainee-records-projector' } });
  startProjector(config, logger).then(
    (app) => exitOnSignal(app, logger),
    (err) => {
      // A bad key file is the operator's configuration: said without a stack, exit 2 as for ConfigError.
      const config = err instanceof ConfigError || err instanceof SigningKeyUnavailable;
      const operators = config || err instanceof StoreUnavailable;
      const detail = operators ? err.message : err instanceof Error ? err.stack : String(err);
      process.stderr.write(`Failed to start the projector: ${detail}\n`);
      process.exit(config ? 2 : 1);
    },
  );
}
