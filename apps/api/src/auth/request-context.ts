import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Caller } from '@app/trainees/write';
import type { VersionContract } from '@app/trainees/contract';

/** What the API guard learns about a request: the served version's contract and the authenticated provider. */
export interface ApiRequest extends FastifyRequest {
  /** The contract of the version the path names (an alias resolved to its version). */
  contract?: VersionContract;
  /** The version segment as requested (GET /info echoes it, docs/reference/API-FACTS.md §1.3). */
  versionSegment?: string;
  caller?: Caller;
}

/** Controller parameter: the authenticated {@link Caller} (set by the API guard). */
export const CurrentCaller = createParamDecorator((_: unknown, ctx: ExecutionContext): Caller => {
  const req = ctx.switchToHttp().getRequest<ApiRequest>();
  if (!req.caller) throw new Error('CurrentCaller used on a route without the API guard');
  return req.caller;
});

/** Controller parameter: the {@link VersionContract} of the path's version (set by the API guard or the public version guard). */
export const Contract = createParamDecorator((_: unknown, ctx: ExecutionContext): VersionContract => {
  const req = ctx.switchToHttp().getRequest<ApiRequest>();
  if (!req.contract) throw new Error('Contract used on a route without a version guard');
  return req.contract;
});

/** Controller parameter: the version segment as requested (an alias as written, docs/reference/API-FACTS.md §1.3). */
export const VersionRequested = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const req = ctx.switchToHttp().getRequest<ApiRequest>();
  if (!req.versionSegment) throw new Error('VersionRequested used on a route without a version guard');
  return req.versionSegment;
});
