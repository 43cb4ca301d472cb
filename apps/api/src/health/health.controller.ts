import { Controller, Get } from '@nestjs/common';
import { Infrastructure } from '../infrastructure/infrastructure';

@Controller()
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
}
