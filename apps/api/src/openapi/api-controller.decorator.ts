import { applyDecorators, Controller, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiVersionParam, Authenticated } from './operation.decorators';
import { ApiGuard } from '../auth/api.guard';

/** Under `/api/:api_version/<path>`, guarded by {@link ApiGuard}, documented under `tag` with the version parameter, 401 and 429. */
export function ApiController(path: string, tag: string): ClassDecorator {
  return applyDecorators(Controller(`api/:api_version/${path}`), UseGuards(ApiGuard), ApiTags(tag), ApiVersionParam(), Authenticated());
}
