import { createParamDecorator, Injectable, type ExecutionContext, type PipeTransform } from '@nestjs/common';
import type { VersionContract, VersionRequests } from '@app/trainees/contract';
import type { RequestData } from '@app/trainees/decider';
import { inSyncSpan, tracingEnabled } from '@app/runtime/tracing';
import type { ApiRequest } from '../auth/request-context';

/** A write body of the contract (libs/trainees/contract/wire/requests.ts). */
export type BodyKind = keyof VersionRequests;

interface RawBody {
  kind: BodyKind;
  contract: VersionContract;
  body: unknown;
}

/** The `data` member of a request body, or undefined when the body is not an object. */
export function dataOf(body: unknown): unknown {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as { data?: unknown }).data : undefined;
}

/**
 * Checks a write body with the DTO classes of its version's contract (class-validator,
 * libs/trainees/contract/wire): the typed fields and every problem found, or
 * missing `data`. It does not answer the 422 itself: the domain does, after the checks that come
 * first (unknown trainee 404, refused state; docs/reference/API-FACTS.md §2.8, §12.4), with the
 * problems and its own rules' messages in one list (docs/DESIGN.md ruling 4).
 */
@Injectable()
export class WireBodyPipe implements PipeTransform<RawBody, RequestData<unknown>> {
  transform(raw: RawBody): RequestData<unknown> {
    const check = () => raw.contract.requests[raw.kind](dataOf(raw.body));
    // A span of its own when tracing is on (docs/observability.md "Traces").
    return tracingEnabled() ? inSyncSpan('request.validate', check) : check();
  }
}

const RawWireBody = createParamDecorator((kind: BodyKind, ctx: ExecutionContext): RawBody => {
  const req = ctx.switchToHttp().getRequest<ApiRequest>();
  if (!req.contract) throw new Error('WireBody used on a route without the API guard');
  return { kind, contract: req.contract, body: req.body };
});

/** Controller parameter: the request's `data` after the version's wire checks ({@link WireBodyPipe}). */
export const WireBody = (kind: BodyKind): ParameterDecorator => RawWireBody(kind, WireBodyPipe);
