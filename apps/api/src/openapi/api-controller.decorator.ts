import { applyDecorators, Controller, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiVersionParam, Authenticated } from './operation.decorators';
import { ApiGuard } from '../auth/api.guard';

/**
 * A controller under `/api/:api_version/<path>` that needs a token (docs/spec/trainee-records-api.md
 * "Authentication", "Versioning"): routed there, guarded by {@link ApiGuard} (the caller and the
 * version's contract set on the request), and documented under `tag` with the version parameter
 * and the 401 and 429 answers.
 */
export function ApiController(path: string, tag: string): ClassDecorator {
  return applyDecorators(Controller(`api/:api_version/${path}`), UseGuards(ApiGuard), ApiTags(tag), ApiVersionParam(), Authenticated());
}
