import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { measureLag, type Projector, type RebuildableStore } from '@app/read-model';
import { type Stores } from '@app/platform';

export const PROJECTOR = Symbol('PROJECTOR');
export const STORES = Symbol('STORES');

/** Lag above which the projector reports itself not ready, in seconds. */
export const READY_MAX_LAG_SECONDS = 30;

/** Health and readiness of the projector process, for orchestrators and operators. */
@Controller()
export class HealthController {
  constructor(
    @Inject(PROJECTOR) private readonly projector: Projector,
    @Inject(STORES) private readonly stores: Stores,
  ) {}

  /**
   * GET /healthz: 200 while the process runs: `{status, live, checkpoint, events_applied, backends}`
   * (`events_applied` counts the events this process has handed to the read store since it started).
   */
  @Get('healthz')
  healthz(): Record<string, unknown> {
    return {
      status: 'ok',
      live: this.projector.live,
      checkpoint: this.projector.checkpoint,
      events_applied: this.projector.eventsApplied,
      backends: this.stores.backends,
    };
  }

  /**
   * GET /readyz: the projection lag in events and seconds (age of the oldest event not applied)
   * and each projection's versions (`rebuild_needed` when the stored one is not the code's); 200 when the subscription is live and the lag
   * is under {@link READY_MAX_LAG_SECONDS} s, else 503.
   */
  @Get('readyz')
  async readyz(@Res() reply: FastifyReply): Promise<void> {
    const lag = await measureLag(this.stores.eventStore, this.projector.checkpoint);
    const ready = this.projector.live && lag.seconds < READY_MAX_LAG_SECONDS;
    const store = this.stores.readModel as Partial<RebuildableStore>;
    const projections = typeof store.projectionInfo === 'function' ? await store.projectionInfo() : [];
    await reply.status(ready ? 200 : 503).send({
      ready,
      projections,
      checkpoint: lag.checkpoint,
      lag: { events: lag.events, events_at_least: lag.atLeast, seconds: Math.round(lag.seconds * 1000) / 1000 },
    });
  }
}
