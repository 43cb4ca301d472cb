import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Caller } from '@app/application';
import type { ApiVersion } from '@app/domain';

/** What the API guard learns about a request: the served version and the authenticated provider. */
export interface ApiRequest extends FastifyRequest {
  apiVersion?: ApiVersion;
  versionSegment?: string;
  caller?: Caller;
}

/** Controller parameter: the authenticated {@link Caller} (set by the API guard). */
export const CurrentCaller = createParamDecorator((_: unknown, ctx: ExecutionContext): Caller => {
  const req = ctx.switchToHttp().getRequest<ApiRequest>();
  if (!req.caller) throw new Error('CurrentCaller used on a route without the API guard');
  return req.caller;
});
