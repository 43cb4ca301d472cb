import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { assessReadiness, type Projector } from '@app/runtime/projector';
import type { RebuildableStore } from '@app/runtime/rebuild';
import { APP_CONFIG, type AppConfig } from '@app/runtime/process';
import type { Stores } from '@app/stores';

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
   * GET /readyz: `{ready, reasons, checkpoint, lag, projector, parked_events, failure, events_applied, backends,
   * projections}`; 200 when ready, else 503 with the reasons (`assessReadiness`: the projector
   * stopped or failing, or the oldest event not applied older than READY_MAX_LAG_SECONDS).
   * `events_applied` counts the events this process has handed to the read store since it
   * started; `failure` names what fails (stream, revision, type, position) or is null;
   * `projections` gives each projection's versions (`rebuild_needed` when the stored one is not the code's).
   */
  @Get('readyz')
  async readyz(@Res() reply: FastifyReply): Promise<void> {
    const health = this.projector.health();
    const readiness = await assessReadiness({
      storedLog: this.stores.storedLog,
      readModel: this.stores.readModel,
      projector: health,
      checkpoint: this.projector.checkpoint,
      maxLagSeconds: this.config.readyMaxLagSeconds,
      behindUntil: 0,
    });
    const store = this.stores.readModel as Partial<RebuildableStore>;
    const projections = typeof store.projectionInfo === 'function' ? await store.projectionInfo() : [];
    await reply.status(readiness.ready ? 200 : 503).send({
      ...readiness,
      failure: health.failure,
      events_applied: this.projector.eventsApplied,
      backends: this.stores.backends,
      projections,
    });
  }
}
