import { Get } from '@nestjs/common';
import { Answers, Operation } from '../openapi/operation.decorators';
import { ApiController } from '../openapi/api-controller.decorator';
import { VersionRequested } from '../auth/request-context';
import { VersionRegistry } from '../composition/versions';

@ApiController('info', 'Info')
export class InfoController {
  constructor(private readonly versions: VersionRegistry) {}

  /**
   * GET /api/{version}/info: `{status: "ok", version: {requested, latest}}`, not wrapped in `data`
   * (docs/spec/trainee-records-api.md "GET /info"; docs/DESIGN.md ruling 5). Authenticated.
   */
  @Get()
  @Operation(
    'getInfo',
    'The version requested and the newest served',
    'Answers `{status: "ok", version: {requested, latest}}`, not wrapped in `data`.',
  )
  @Answers(200, 'OK.', 'InfoResponse')
  info(@VersionRequested() requested: string): { status: string; version: { requested: string; latest: string } } {
    return { status: 'ok', version: { requested, latest: this.versions.latest } };
  }
}
