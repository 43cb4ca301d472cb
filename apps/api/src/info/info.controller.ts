import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiGuard } from '../shared/api.guard';
import { VersionRequested } from '../shared/request-context';
import { VersionRegistry } from '../shared/versions';

@Controller('api/:version/info')
@UseGuards(ApiGuard)
export class InfoController {
  constructor(private readonly versions: VersionRegistry) {}

  /**
   * GET /api/{version}/info: `{status: "ok", version: {requested, latest}}`, not wrapped in `data`
   * (docs/spec/trainee-records-api.md "GET /info"; docs/DESIGN.md ruling 5). Authenticated.
   */
  @Get()
  info(@VersionRequested() requested: string): { status: string; version: { requested: string; latest: string } } {
    return { status: 'ok', version: { requested, latest: this.versions.latest } };
  }
}
