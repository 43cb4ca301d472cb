import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { assessReadiness, type Projector } from '@app/runtime/projector';
import { LOG_START } from '@app/event-sourcing';
import { APP_CONFIG, type AppConfig } from '@app/runtime/process';
import type { Stores } from '@app/composition';

export const PROJECTOR = Symbol('PROJECTOR');
export const STORES = Symbol('STORES');

/** Health and readiness of the projector process, for orchestrators and operators (docs/operations.md "Health"). */
@Controller()
export class HealthController {
  constructor(
    @Inject(PROJECTOR) private readonly projector: Projector,
    @Inject(STORES) private readonly stores: Stores,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** GET /healthz: 200 `{status: "ok"}` while the process runs (liveness only). */
  @Get('healthz')
  healthz(): Record<string, unknown> {
    return { status: 'ok' };
  }

  /**
   * GET /readyz: 200 `{ready: true, reasons: []}`, or 503 `{ready: false, reasons}`, one sentence each (`assessReadiness`); counts are
   * metrics and failures are logged (docs/operations.md "Health").
   */
  @Get('readyz')
  async readyz(@Res() reply: FastifyReply): Promise<void> {
    const readiness = await assessReadiness({
      storedLog: this.stores.storedLog,
      projector: this.projector.health(),
      checkpoint: this.projector.checkpoint,
      maxLagSeconds: this.config.readyMaxLagSeconds,
      behindUntil: LOG_START,
      readModelsDamaged: this.stores.readModelsDamaged(),
    });
    await reply.status(readiness.ready ? 200 : 503).send(readiness);
  }
}
