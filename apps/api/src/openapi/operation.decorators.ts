/**
 * `@nestjs/swagger` decorators for the operations, written once (docs/DESIGN.md ruling 4). Schemas are named, not built: each version's
 * document holds its own under these names (libs/trainees/contract/openapi), so one controller serves every version.
 */
import { applyDecorators } from '@nestjs/common';
import { BODY_MAX_TEXT, JSON_BOUNDS_TEXT } from '@app/trainees/record';
import { ApiBearerAuth, ApiBody, ApiExtension, ApiHeader, ApiOperation, ApiParam, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import { Idempotent } from '../idempotency/idempotency.interceptor';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A JSON body of the named (or given) schema, and its headers. */
export function Answers(
  status: number,
  description: string,
  schema: string | Record<string, unknown>,
  headers?: Record<string, { description: string; schema: Record<string, unknown> }>,
): MethodDecorator & ClassDecorator {
  return ApiResponse({
    status,
    description,
    ...(headers ? { headers } : {}),
    content: { 'application/json': { schema: typeof schema === 'string' ? ref(schema) : schema } },
  });
}

export const ATTACHMENT_HEADER = {
  'Content-Disposition': {
    description: '`attachment; filename="<name>.csv"`: saved as a file.',
    schema: { type: 'string', maxLength: 512, pattern: '^attachment; filename=' },
  },
};

/** Every operation's first parameter (docs/spec/trainee-records-api.md "Versioning"). */
export const ApiVersionParam = (): MethodDecorator & ClassDecorator =>
  ApiParam({
    name: 'api_version',
    required: true,
    description: 'The API version (the document lists the one it describes).',
    schema: { type: 'string' },
  });

/** 24 base58 characters, matched case-insensitively (API-FACTS §1.10). */
export const IdParam = (name: 'trainee_id' | 'placement_id' | 'degree_id'): MethodDecorator & ClassDecorator =>
  ApiParam({
    name,
    required: true,
    description: `The ${name.replace('_id', '')} id (matched case-insensitively).`,
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  });

/** 401, and 429 where a rate limit applies. */
export function Authenticated(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiBearerAuth('token'),
    ApiSecurity('bareToken'),
    Answers(
      401,
      'No valid token: `Authorization: Bearer <token>`, or the bare token (docs/spec/trainee-records-api.md "Authentication"; docs/DESIGN.md ruling 20).',
      'Unauthorized',
    ),
    RateLimited(),
  );
}

/** 429 plain text with `Retry-After` (API-FACTS §3.1) and the `RateLimit-*` headers; 403 for a blocked client (§3.2). */
export function RateLimited(): MethodDecorator & ClassDecorator {
  const seconds = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
  return applyDecorators(
    ApiResponse({
      status: 429,
      description:
        'Too many requests: more than the deployment allows per client IP or per token in the current fixed 60-second window ' +
        '(by default 100 each). Every answer under `/api` then carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`.',
      headers: {
        'Retry-After': seconds('Whole seconds until the window ends.'),
        'RateLimit-Limit': seconds('Requests allowed in the window.'),
        'RateLimit-Remaining': seconds('Requests left in the window.'),
        'RateLimit-Reset': seconds('Whole seconds until the window ends.'),
      },
      content: { 'text/plain': { schema: ref('TooManyRequests') } },
    }),
    ApiResponse({
      status: 403,
      description: 'The client IP or user agent is blocked by the deployment: plain text `Forbidden`.',
      content: { 'text/plain': { schema: { type: 'string', example: 'Forbidden\n' } } },
    }),
  );
}

/** 503 with `Retry-After` on every write: the data directory is failing or the event store too busy; nothing was written. */
export function StorageUnavailable(): MethodDecorator & ClassDecorator {
  return ApiResponse({
    status: 503,
    description:
      'The service cannot store the change now (its storage is full or failing, or too busy); nothing was written. ' +
      'Retry after `Retry-After` seconds.',
    headers: { 'Retry-After': { description: 'Whole seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } } },
    content: { 'application/json': { schema: ref('ServiceUnavailable') } },
  });
}

/** The controller method's docstring in short. */
export function Operation(operationId: string, summary: string, description?: string): MethodDecorator {
  return ApiOperation({ operationId, summary, description });
}

/** Only in the versions whose contract has `feature`. */
export function ForVersionsWith(feature: 'referenceData' | 'updateQtsOrEytsStatus'): MethodDecorator {
  return ApiExtension('x-contract-feature', feature);
}

/**
 * A write's body (`{data: …}`), its `Idempotency-Key` and every write's answers: 400, 413, 409, 422, 503; `notFound` adds 404 for an
 * unknown trainee, placement or degree.
 */
export function Writes(body: string, options: { notFound: boolean; conflict?: string; enhancedErrors?: boolean }): MethodDecorator {
  const unprocessable = options.enhancedErrors
    ? { oneOf: [ref('UnprocessableEntity'), ref('EnhancedValidationErrors')] }
    : 'UnprocessableEntity';
  return applyDecorators(
    ApiBody({ required: true, schema: ref(body) }),
    Idempotent(),
    Answers(
      400,
      `The body is not valid JSON or exceeds a bound (${JSON_BOUNDS_TEXT}), or \`Idempotency-Key\` is not 1 to 255 visible ASCII characters.`,
      'BadRequest',
    ),
    Answers(413, `The body is larger than ${BODY_MAX_TEXT}.`, 'PayloadTooLarge'),
    StorageUnavailable(),
    Answers(
      409,
      options.conflict
        ? 'A duplicate (the existing records in `data`), or a concurrent change of the trainee, or the first request with this ' +
            '`Idempotency-Key` still running.'
        : 'A concurrent change of the trainee, or the first request with this `Idempotency-Key` still running; retry.',
      options.conflict ?? 'Conflict',
    ),
    Answers(
      422,
      'Every failed rule, one entry each; StateTransitionError when the state refuses the action; `data` missing; ' +
        '`Idempotency-Key` used with another request.',
      unprocessable,
    ),
    ...(options.notFound
      ? [Answers(404, "Trainee(s) not found (another provider's included), Placement(s) or Degree(s) not found.", 'NotFound')]
      : []),
    ...(options.enhancedErrors
      ? [
          ApiHeader({
            name: 'Enhanced-Errors',
            required: false,
            description: '`true`: a validation 422 answers its errors keyed by field (docs/reference/API-FACTS.md §5.4).',
            schema: { type: 'string', enum: ['true', 'false'] },
          }),
        ]
      : []),
  );
}

export const NotFoundAnswer = (description = "Trainee(s) not found (another provider's included)."): MethodDecorator & ClassDecorator =>
  Answers(404, description, 'NotFound');
