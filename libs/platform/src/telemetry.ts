import { Metrics, startMetricsServer, type MetricsServer, type ProcessRole } from '@app/telemetry';
import type { AppConfig } from './config';

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
