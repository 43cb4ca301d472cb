import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Projections } from '../composition/projections';

/** Outside `/api`, without a token (docs/operations.md "Health"). */
@Controller()
@ApiExcludeController()
export class HealthController {
  constructor(private readonly projections: Projections) {}

  /** GET /healthz: 200 `{status: "ok"}` while the process serves. */
  @Get('healthz')
  healthz(): Record<string, unknown> {
    return { status: 'ok' };
  }

  /**
   * GET /readyz: 200 `{ready: true, reasons: []}` or 503 `{ready: false, reasons}` (`assessReadiness`); no figures, as it needs no token.
   */
  @Get('readyz')
  async readyz(@Res() reply: FastifyReply): Promise<void> {
    const readiness = await this.projections.readiness();
    await reply.status(readiness.ready ? 200 : 503).send(readiness);
  }
}
