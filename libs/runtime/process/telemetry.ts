import { createRegistry, RegistryProcessManager, type ConsumerCheckpoints } from '@app/registry';
import {
  instrumentRegistry,
  Metrics,
  registryProcessTracing,
  startMetricsServer,
  type MetricsServer,
  type ProcessRole,
} from '@app/runtime/telemetry';
import type { AppConfig } from './config';
import { type ContextLogger, messageFirst } from './logging';
import { exitOnFatal } from './process-signals';
import type { EventStore } from '@app/event-sourcing';

export interface ProcessMetrics {
  metrics: Metrics;
  /** Resolves once listening. */
  listen(): Promise<MetricsServer>;
}

/** Null without `METRICS_PORT`: no family measured, nothing listening. Failing scrape-time readings are logged at warn. */
export function processMetrics(
  config: Pick<AppConfig, 'metrics'>,
  roles: readonly ProcessRole[],
  logger: { warn(context: object, message: string): void },
): ProcessMetrics | null {
  const where = config.metrics;
  if (!where) return null;
  const metrics = new Metrics(roles, { warn: (message, context) => logger.warn(context ?? {}, message) });
  return { metrics, listen: () => startMetricsServer(metrics, where.port, where.host) };
}

/** The projecting process's registry process manager, measured and traced; null when no registry is configured. */
export function createRegistryProcess(
  config: AppConfig,
  stores: { eventStore: EventStore; consumerCheckpoints: ConsumerCheckpoints },
  logger: ContextLogger,
  metrics: Metrics | null,
): RegistryProcessManager | null {
  const registry = createRegistry(config);
  if (!registry) return null;
  return new RegistryProcessManager(
    stores.eventStore,
    stores.consumerCheckpoints,
    instrumentRegistry(registry, metrics),
    messageFirst(logger),
    {
      around: registryProcessTracing(),
      // The process exits 1 for its supervisor to restart it (docs/DESIGN.md "Failures of the subscription").
      onFatal: (error) => exitOnFatal(logger, 'the registry process manager cannot go on; exiting', error),
    },
  );
}
