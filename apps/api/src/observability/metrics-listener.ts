import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import type { ProcessMetrics } from '@app/runtime/process';
import type { MetricsServer } from '@app/runtime/telemetry';
import { LOGGER, METRICS } from '../composition/tokens';

/**
 * The API's metrics listener (docs/observability.md "Metrics"): started once the application is up,
 * on METRICS_PORT (never the API's port), closed at shutdown; nothing when METRICS_PORT is unset.
 */
@Injectable()
export class MetricsListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private server: MetricsServer | null = null;

  constructor(
    @Inject(METRICS) private readonly metrics: ProcessMetrics | null,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** The port metrics are served on, or null when they are not. */
  get port(): number | null {
    return this.server?.port ?? null;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.metrics) return;
    this.server = await this.metrics.listen();
    this.logger.info({ port: this.server.port }, 'metrics listening');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.server?.close();
  }
}
