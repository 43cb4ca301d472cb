import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Infrastructure } from '../infrastructure/infrastructure';

@Controller()
@ApiExcludeController()
export class HealthController {
  constructor(private readonly infra: Infrastructure) {}

  /**
   * GET /healthz (outside `/api`, no authentication): 200 `{status: "ok", projector, checkpoint}`
   * while the process serves; for container health checks.
   */
  @Get('healthz')
  async healthz(): Promise<Record<string, unknown>> {
    return {
      status: 'ok',
      projector: this.infra.config.projector,
      checkpoint: this.infra.projector ? this.infra.projector.checkpoint : await this.infra.readModel.checkpoint(),
    };
  }

  /**
   * GET /readyz (no authentication): 200 `{ready: true, projections}` while serving; each
   * projection with its code and stored version and `rebuild_needed` when they differ (the old
   * store keeps serving until `admin projections rebuild`).
   */
  @Get('readyz')
  async readyz(): Promise<Record<string, unknown>> {
    return { ready: true, projections: (await this.infra.projectionInfo()) ?? [] };
  }
}
