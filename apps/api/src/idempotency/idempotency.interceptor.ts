import {
  applyDecorators,
  HttpException,
  Injectable,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { of, type Observable } from 'rxjs';
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeyOf, Idempotency, REPLAYED_HEADER } from './idempotency';
import type { ApiRequest } from '../auth/request-context';

/** 422: the key was first used with another method, path or body. */
export const KEY_REUSED = `This ${IDEMPOTENCY_KEY_HEADER} was used with another request (another path or body)`;

/** 409: the first request with the key has not answered yet. */
export const KEY_IN_PROGRESS = `A request with this ${IDEMPOTENCY_KEY_HEADER} is still running; retry after it has answered`;

/**
 * After the guard, before the body's checks (docs/operations.md "Limits"): a key's first request runs and its answer is kept; the same
 * request again replays it with `Idempotent-Replayed: true`; another request with the key 422; while the first runs, 409.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly idempotency: Idempotency) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const key = idempotencyKeyOf(req);
    if (key === null || !req.caller) return next.handle();
    const found = await this.idempotency.claim(req, key);
    if (found.outcome === 'claimed') return next.handle();
    if (found.outcome === 'mismatch') throw new HttpException(KEY_REUSED, 422);
    if (found.outcome === 'in-progress') throw new HttpException(KEY_IN_PROGRESS, 409);
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    void reply.status(found.answer.status).header('content-type', found.answer.contentType).header(REPLAYED_HEADER, 'true');
    return of(found.answer.body);
  }
}

/** The interceptor and the header parameter; the documents add its 400, 409, 422 and `Idempotent-Replayed` (api-docs/common-answers.ts). */
export function Idempotent(): MethodDecorator {
  return applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: IDEMPOTENCY_KEY_HEADER,
      required: false,
      description:
        'Makes a retry safe: 1 to 255 visible ASCII characters (a UUID), unique per token for 24 hours. A retry with the same key, ' +
        'method, path and body answers the first answer again (same status and body) with `Idempotent-Replayed: true`, without ' +
        'writing again; the same key with another path or body answers 422; while the first request runs, 409. Answers 401, 429 ' +
        'and 5xx are not kept (a retry runs again). A key not of that form answers 400.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
    }),
  );
}
