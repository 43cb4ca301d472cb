import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { AppendTooLargeError, EventStoreUnavailableError, DomainError, StreamDeletedError } from '@app/event-sourcing';
import { READ_MODELS_DAMAGED_ANSWER, ReadModelsDamaged } from '@app/runtime/projector';
import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import {
  ConcurrentModification,
  DuplicateDegree,
  DuplicateTrainee,
  MissingData,
  NotFound,
  StateTransitionError,
  ValidationFailed,
} from '@app/trainees/decider';
import type { Trainee, Degree } from '@app/trainees/record';
import { UploadConflict, UploadNotFound, UploadNotSubmittable } from '@app/uploads/decider';
import { UploadFileRefused } from '@app/uploads/csv';
import { UploadQuotaExceeded } from '@app/uploads/write';
import { ApiAuthenticator, ResourceNotFound, RouteNotFound, Unauthorized } from '../auth/api.guard';
import { EnhancedValidationFailed } from './enhanced-errors.interceptor';
import { AuditDigestNotFound, errorsBody, ListQueryInvalid, NoTraineesFound, ReferenceDataNotFound } from './errors';
import type { ApiRequest } from '../auth/request-context';
import { VERSION_PATTERN } from '../composition/versions';
import { STORAGE_FAULT_MESSAGE, STORAGE_RETRY_AFTER_SECONDS, type StorageFaults } from '../composition/storage-faults';

/** A MongoDB replica set elects a new primary in about 10 s. */
const STORE_RETRY_AFTER_SECONDS = 5;

/**
 * Maps every error to the spec's shapes (docs/spec/trainee-records-api.md "Errors"; docs/DESIGN.md rulings 4 and property 7): the
 * only place where errors become HTTP. A write the storage could not take (the data directory full,
 * read-only or unwritable: `StorageFaults`) answers 503 `ServiceUnavailable` with `Retry-After`
 * (docs/operations.md "When the disk fills"), logged there at most once a minute per kind.
 * Unknown errors are logged and answered 500 without detail.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly authenticator: ApiAuthenticator,
    private readonly logger: Logger,
    private readonly storage: StorageFaults,
    /** The stores' `unavailable` (libs/composition `Stores`). */
    private readonly storeUnavailable: (error: unknown) => boolean = () => false,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const req = host.switchToHttp().getRequest<ApiRequest>();
    void this.respond(exception, req, reply);
  }

  private async respond(exception: unknown, req: ApiRequest, reply: FastifyReply): Promise<void> {
    try {
      if (this.storage.noted(exception)) {
        await reply
          .status(503)
          .header('retry-after', String(STORAGE_RETRY_AFTER_SECONDS))
          .header('content-type', 'application/json; charset=utf-8')
          .send(errorsBody('ServiceUnavailable', [STORAGE_FAULT_MESSAGE]));
        return;
      }
      const [status, body] = await this.toResponse(exception, req);
      if (status >= 500) this.logger.error({ err: exception, reqId: req.id, path: (req.url ?? '').split('?')[0] }, 'unhandled error');
      if (exception instanceof ReadModelsDamaged) void reply.header('retry-after', String(READ_MODELS_DAMAGED_ANSWER.retryAfterSeconds));
      if (exception instanceof EventStoreUnavailableError) void reply.header('retry-after', '1');
      if (this.storeUnavailable(exception)) void reply.header('retry-after', String(STORE_RETRY_AFTER_SECONDS));
      if (exception instanceof UploadQuotaExceeded) void reply.header('retry-after', String(exception.retryAfterSeconds));
      await reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
    } catch (err) {
      this.logger.error({ err, reqId: req.id }, 'error while answering an error');
      if (!reply.sent) await reply.status(500).send(errorsBody('InternalServerError', ['Internal server error']));
    }
  }

  private async toResponse(exception: unknown, req: ApiRequest): Promise<[number, unknown]> {
    if (exception instanceof Unauthorized) return [401, { error: 'Unauthorized' }];
    if (exception instanceof RouteNotFound) return [404, errorsBody('NotFound', [exception.message])];
    if (exception instanceof ResourceNotFound) return [404, { error: 'Resource not found' }];
    if (exception instanceof ListQueryInvalid) return [422, exception.body()];
    if (exception instanceof NoTraineesFound) return [404, errorsBody('NotFound', ['No trainees found'])];
    if (exception instanceof EnhancedValidationFailed) return [422, exception.body];
    if (exception instanceof ReferenceDataNotFound || exception instanceof AuditDigestNotFound)
      return [404, errorsBody('NotFound', [exception.message])];
    if (exception instanceof DomainError) return this.domain(exception, req);
    // The event store cannot take the call now: too many calls waiting, or one past its deadline
    // (`EventStoreUnavailableError`). 503 at once rather than a request held open: try again shortly
    // (`Retry-After: 1`, set in `respond`).
    if (exception instanceof EventStoreUnavailableError) {
      return [503, errorsBody('ServiceUnavailable', ['The event store is busy; please try again shortly'])];
    }
    // The events a write makes are larger than the event store takes in one append (EventStoreDB's
    // `MaxAppendSize`); nothing was written. The body bounds keep a request below 1 MiB, the default.
    if (exception instanceof AppendTooLargeError) {
      return [
        413,
        errorsBody('PayloadTooLarge', ['The change is larger than the event store takes in one write; send it in smaller parts']),
      ];
    }
    // The record's stream was deleted for good in the event store (an EventStoreDB tombstone, set by an
    // operator: the service deletes none): what it held is gone, as a record never made is.
    if (exception instanceof StreamDeletedError) return [404, errorsBody('NotFound', ['The record was deleted from the event store'])];
    // A database cannot answer now (MongoDB: no primary, the connection lost, a write concern not met
    // in time): a write may have been done, and a retry after the election sees it.
    if (this.storeUnavailable(exception)) {
      return [503, errorsBody('ServiceUnavailable', ['The service cannot reach its records at the moment; please try again shortly'])];
    }
    // The read store's file is damaged: 503 with `Retry-After` (set in `respond`) until a restart
    // rebuilds it from the log; `/readyz` says so meanwhile (docs/operations.md "Health").
    if (exception instanceof ReadModelsDamaged) return [503, errorsBody('ServiceUnavailable', [READ_MODELS_DAMAGED_ANSWER.message])];
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) return this.unmatchedRoute(req);
      return [status, errorsBody(errorName(status), [exception.message])];
    }
    const status = httpStatusOf(exception);
    if (status === 400) return [400, errorsBody('BadRequest', [capitalise((exception as Error).message)])];
    if (status && status >= 400 && status < 500) return [status, errorsBody(errorName(status), [(exception as Error).message])];
    return [500, errorsBody('InternalServerError', ['Internal server error'])];
  }

  private domain(e: DomainError, req: ApiRequest): [number, unknown] {
    if (e instanceof ValidationFailed) return [422, errorsBody('UnprocessableEntity', e.messages)];
    if (e instanceof MissingData) return [422, errorsBody('UnprocessableEntity', [e.message])];
    if (e instanceof NotFound) return [404, errorsBody('NotFound', [e.message])];
    if (e instanceof StateTransitionError) return [422, errorsBody('StateTransitionError', [e.message])];
    if (e instanceof DuplicateTrainee && req.contract) {
      const { output } = req.contract;
      return [
        409,
        {
          ...errorsBody('Conflict', [e.message]),
          data: (e.existing as Trainee[]).map((t) => output.serializeTrainee(t, { nested: true })),
        },
      ];
    }
    if (e instanceof DuplicateDegree && req.contract) {
      const { output } = req.contract;
      return [409, { ...errorsBody('Conflict', [e.message]), data: (e.existing as Degree[]).map((d) => output.serializeDegree(d)) }];
    }
    if (e instanceof ConcurrentModification) return [409, errorsBody('Conflict', [e.message])];
    if (e instanceof UploadNotFound) return [404, errorsBody('NotFound', [e.message])];
    if (e instanceof UploadConflict) return [409, errorsBody('Conflict', [e.message])];
    if (e instanceof UploadNotSubmittable) return [422, errorsBody('UnprocessableEntity', [e.message])];
    // A provider's upload quota: 429 naming the limit, with `Retry-After` (set in `respond`; docs/operations.md "Limits").
    if (e instanceof UploadQuotaExceeded) return [429, errorsBody('TooManyRequests', [e.message])];
    // A file refused as a whole: 413 past its size, else 422 naming why (docs/operations.md "Adding trainees from a file").
    if (e instanceof UploadFileRefused && e.reason === 'too_large') return [413, errorsBody('PayloadTooLarge', [e.message])];
    return [422, errorsBody('UnprocessableEntity', [e.message])];
  }

  /**
   * An unmatched route: under `/api/<version-like>/` it is authenticated first, then 404 `Not found`
   * (docs/reference/API-FACTS.md §1.4); elsewhere the generic `{"error":"Resource not found"}` (§1.5).
   */
  private async unmatchedRoute(req: ApiRequest): Promise<[number, unknown]> {
    const path = (req.url ?? '').split('?')[0];
    const segments = path.split('/');
    if (segments[1] === 'api' && segments.length > 2 && VERSION_PATTERN.test(segments[2])) {
      try {
        if (!req.caller) await this.authenticator.authenticate(req, segments[2]);
      } catch (err) {
        if (err instanceof Unauthorized) return [401, { error: 'Unauthorized' }];
        if (err instanceof RouteNotFound) return [404, errorsBody('NotFound', [err.message])];
      }
      return [404, errorsBody('NotFound', ['Not found'])];
    }
    return [404, { error: 'Resource not found' }];
  }
}

function httpStatusOf(e: unknown): number | null {
  if (e && typeof e === 'object' && 'statusCode' in e && typeof (e as { statusCode: unknown }).statusCode === 'number') {
    return (e as { statusCode: number }).statusCode;
  }
  return null;
}

const NAMES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'UnprocessableEntity',
  429: 'TooManyRequests',
  503: 'ServiceUnavailable',
};

function errorName(status: number): string {
  return NAMES[status] ?? (status >= 500 ? 'InternalServerError' : 'BadRequest');
}

/** Ruby-style capitalisation of parser messages (docs/reference/API-FACTS.md §5.1): first character upper-case, the rest lower. */
function capitalise(message: string): string {
  const m = message || 'Bad request';
  return m.charAt(0).toUpperCase() + m.slice(1).toLowerCase();
}
