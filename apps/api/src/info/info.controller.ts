import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Answers, ApiVersionParam, Authenticated, Operation } from '../openapi/operation.decorators';
import { ApiGuard } from '../kernel/api.guard';
import { VersionRequested } from '../kernel/request-context';
import { VersionRegistry } from '../kernel/versions';

@Controller('api/:api_version/info')
@UseGuards(ApiGuard)
@ApiTags('Info')
@ApiVersionParam()
@Authenticated()
export class InfoController {
  constructor(private readonly versions: VersionRegistry) {}

  /**
   * GET /api/{version}/info: `{status: "ok", version: {requested, latest}}`, not wrapped in `data`
   * (docs/spec/trainee-records-api.md "GET /info"; docs/DESIGN.md ruling 5). Authenticated.
   */
  @Get()
  @Operation('getInfo', 'The version requested and the newest served', 'Answers `{status: "ok", version: {requested, latest}}`, not wrapped in `data`.')
  @Answers(200, 'OK.', 'InfoResponse')
  info(@VersionRequested() requested: string): { status: string; version: { requested: string; latest: string } } {
    return { status: 'ok', version: { requested, latest: this.versions.latest } };
  }
}
