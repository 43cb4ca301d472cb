import { createRegistry, RegistryProcessManager } from '@app/registry';
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
import type { ReadModelStore } from '@app/runtime/projector';

/** A process's metrics and their listener (docs/observability.md "Metrics"). */
export interface ProcessMetrics {
  metrics: Metrics;
  /** Starts the listener on `config.metrics`; resolves with it once listening. */
  listen(): Promise<MetricsServer>;
}

/**
 * The metrics of a process playing `roles`, when `METRICS_PORT` is set; null otherwise (then no
 * family is measured and nothing listens). Scrape-time readings that fail are logged at warn.
 */
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

/**
 * The registry process manager of the process that projects (the API in-process, else the
 * projector), on the configured registry (docs/operations.md "Configuration"), its position kept in
 * `stores.consumerCheckpoints`, measured with `metrics` and traced when tracing is on
 * (docs/observability.md); null when no registry is configured.
 */
export function createRegistryProcess(
  config: AppConfig,
  stores: { eventStore: EventStore; consumerCheckpoints: Pick<ReadModelStore, 'readCheckpoint' | 'writeCheckpoint'> },
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
      // Its subscription cannot go on: the process exits 1 and its supervisor restarts it (docs/DESIGN.md
      // "Failures of the subscription").
      onFatal: (error) => exitOnFatal(logger, 'the registry process manager cannot go on; exiting', error),
    },
  );
}
