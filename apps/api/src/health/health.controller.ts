import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Projections } from '../kernel/projections';

/** Health and readiness of the API process, outside `/api`, without authentication. */
@Controller()
@ApiExcludeController()
export class HealthController {
  constructor(private readonly projections: Projections) {}

  /**
   * GET /healthz: 200 `{status: "ok", projector, checkpoint}` while the process serves; for
   * container health checks (`projector`: `in-process` or `external`; `checkpoint`: the global
   * position of the last event the read models applied).
   */
  @Get('healthz')
  async healthz(): Promise<Record<string, unknown>> {
    return { status: 'ok', projector: this.projections.config.projector, checkpoint: await this.projections.checkpoint() };
  }

  /**
   * GET /readyz: 200 `{ready: true, projections}` while serving; each projection with its code and
   * stored version and `rebuild_needed` when they differ (the old store keeps serving until
   * `admin projections rebuild`).
   */
  @Get('readyz')
  async readyz(): Promise<Record<string, unknown>> {
    return { ready: true, projections: (await this.projections.projectionInfo()) ?? [] };
  }
}
