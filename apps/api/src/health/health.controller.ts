import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Projections } from '../composition/projections';

/** Health and readiness of the API process, outside `/api`, without authentication (docs/operations.md "Health"). */
@Controller()
@ApiExcludeController()
export class HealthController {
  constructor(private readonly projections: Projections) {}

  /** GET /healthz: 200 `{status: "ok"}` while the process serves (liveness only: no positions or counts). */
  @Get('healthz')
  healthz(): Record<string, unknown> {
    return { status: 'ok' };
  }

  /**
   * GET /readyz: 200 `{ready: true, reasons: []}`, or 503 `{ready: false, reasons}` (one sentence
   * each): the in-process projector stopped or failing, the projection further behind than
   * READY_MAX_LAG_SECONDS, a write whose projection wait timed out not yet projected, or the read
   * models damaged, which a restart rebuilds (`assessReadiness`). Nothing else: no position, count or version, since it needs no token (the
   * figures are metrics, docs/observability.md; the projections' versions `admin projections status`).
   */
  @Get('readyz')
  async readyz(@Res() reply: FastifyReply): Promise<void> {
    const readiness = await this.projections.readiness();
    await reply.status(readiness.ready ? 200 : 503).send(readiness);
  }
}
