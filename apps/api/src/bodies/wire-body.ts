import { createParamDecorator, Injectable, type ExecutionContext, type PipeTransform } from '@nestjs/common';
import type { VersionContract, VersionRequests } from '@app/trainees/contract';
import type { RequestData } from '@app/trainees/decider';
import { inSyncSpan, tracingEnabled } from '@app/runtime/tracing';
import type { ApiRequest } from '../auth/request-context';

/** libs/trainees/contract/wire/requests.ts */
export type BodyKind = keyof VersionRequests;

interface RawBody {
  kind: BodyKind;
  contract: VersionContract;
  body: unknown;
}

/** Undefined when the body is not an object. */
export function dataOf(body: unknown): unknown {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as { data?: unknown }).data : undefined;
}

/**
 * The version's DTO checks of a write body: typed fields and problems. The 422 is the domain's, after the checks that come first
 * (404, a refused state: API-FACTS §2.8, §12.4), with its own rules' messages in one list (docs/DESIGN.md ruling 4).
 */
@Injectable()
export class WireBodyPipe implements PipeTransform<RawBody, RequestData<unknown>> {
  transform(raw: RawBody): RequestData<unknown> {
    const check = () => raw.contract.requests[raw.kind](dataOf(raw.body));
    return tracingEnabled() ? inSyncSpan('request.validate', check) : check();
  }
}

const RawWireBody = createParamDecorator((kind: BodyKind, ctx: ExecutionContext): RawBody => {
  const req = ctx.switchToHttp().getRequest<ApiRequest>();
  if (!req.contract) throw new Error('WireBody used on a route without the API guard');
  return { kind, contract: req.contract, body: req.body };
});

/** `data` after the version's wire checks. */
export const WireBody = (kind: BodyKind): ParameterDecorator => RawWireBody(kind, WireBodyPipe);
