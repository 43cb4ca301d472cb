import type { OpenAPIObject } from '@nestjs/swagger';
import { STRICT_TRANSPORT_SECURITY } from '../admission/transport-security';

type Json = Record<string, unknown>;

const ref = (kind: 'schemas' | 'headers', name: string): Json => ({ $ref: `#/components/${kind}/${name}` });
const errorsAnswer = (description: string, schema: string, headers?: Json): Json => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: ref('schemas', schema) } },
});
const seconds = (description: string): Json => ({ description, schema: { type: 'integer', minimum: 0 } });

/**
 * The headers the answers declare by reference: the rate limit's (docs/operations.md "Limits":
 * every answer under `/api` carries them while a limit is on), `Strict-Transport-Security` (every
 * answer in production: admission/transport-security.ts), `Retry-After` and `Idempotent-Replayed`.
 */
const HEADERS: Json = {
  'RateLimit-Limit': seconds('Requests allowed in the current fixed 60-second window (sent while a rate limit is on).'),
  'RateLimit-Remaining': seconds('Requests left in the window (sent while a rate limit is on).'),
  'RateLimit-Reset': seconds('Whole seconds until the window ends (sent while a rate limit is on).'),
  'Strict-Transport-Security': {
    description: 'In production only: use HTTPS for this host for a year, subdomains included.',
    schema: { type: 'string', enum: [STRICT_TRANSPORT_SECURITY] },
  },
  'Retry-After': seconds('Whole seconds after which to try again.'),
  'Idempotent-Replayed': {
    description: '`true` on the first answer to this `Idempotency-Key` sent again: nothing was written this time.',
    schema: { type: 'string', enum: ['true'] },
  },
};

const EVERY_ANSWER_HEADERS: Json = Object.fromEntries(
  ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Strict-Transport-Security'].map((name) => [name, ref('headers', name)]),
);

const KEY_NOTE = {
  400: '`Idempotency-Key` not 1 to 255 visible ASCII characters.',
  409: 'The first request with this `Idempotency-Key` is still running: retry once it has answered.',
  422: '`Idempotency-Key` used with another request (another path or body).',
} as const;

/** The methods whose request may carry a body, which the body parser reads and bounds. */
const WITH_BODY = ['post', 'put', 'patch', 'delete'];

/**
 * Adds to every operation of `document` (in place) the answers every operation of its kind may
 * give, which no controller states one by one (the exception filter's, apps/api/src/errors):
 *
 * - every answer: the `RateLimit-*` headers and `Strict-Transport-Security`;
 * - every operation: 500, a fault of the service; an operation that needs a token: 503 with
 *   `Retry-After`, the stores unable to answer now (the event store busy, the storage failing, the read store damaged);
 * - a method with a body: 400 (not JSON, or past a bound), 413 (too large), 415 (a `Content-Type`
 *   that is no media type), where not stated;
 * - an operation taking `Idempotency-Key`: 400, 409 and 422 of the key (docs/operations.md
 *   "Limits"), and `Idempotent-Replayed` on the answers a retry replays (2xx, 4xx but 401, 403, 429).
 */
export function addCommonAnswers(document: OpenAPIObject): void {
  const components = (document.components ??= {}) as Json;
  components.headers = { ...((components.headers as Json | undefined) ?? {}), ...HEADERS };
  for (const item of Object.values(document.paths) as Json[]) {
    for (const [method, operation] of Object.entries(item)) {
      if (!isOperation(operation)) continue;
      const responses = operation.responses as Json;
      const needsToken = Array.isArray(operation.security) && operation.security.length > 0;
      if (needsToken) {
        const unavailable = (responses['503'] ??= errorsAnswer(
          'The service cannot answer now (its event store busy, its storage failing, its read store damaged): try again after `Retry-After` seconds.',
          'ServiceUnavailable',
        )) as Json;
        unavailable.headers = { ...((unavailable.headers as Json | undefined) ?? {}), 'Retry-After': ref('headers', 'Retry-After') };
      }
      responses['500'] ??= errorsAnswer('A fault of the service: nothing of the request is answered.', 'InternalServerError');
      if (WITH_BODY.includes(method)) addBodyAnswers(responses);
      if (takesIdempotencyKey(operation)) addKeyAnswers(responses);
      for (const answer of Object.values(responses) as Json[]) {
        answer.headers = { ...EVERY_ANSWER_HEADERS, ...((answer.headers as Json | undefined) ?? {}) };
      }
    }
  }
}

function isOperation(value: unknown): value is Json & { responses: Json } {
  return typeof value === 'object' && value !== null && typeof (value as Json).responses === 'object';
}

function takesIdempotencyKey(operation: Json): boolean {
  return ((operation.parameters as Json[] | undefined) ?? []).some((p) => p.in === 'header' && p.name === 'Idempotency-Key');
}

function addBodyAnswers(responses: Json): void {
  responses['400'] ??= errorsAnswer('The body is not valid JSON, or past a bound (the message names it).', 'BadRequest');
  responses['413'] ??= errorsAnswer('The body is larger than the operation takes.', 'PayloadTooLarge');
  responses['415'] ??= errorsAnswer('The `Content-Type` header is not a media type.', 'UnsupportedMediaType');
}

function addKeyAnswers(responses: Json): void {
  responses['400'] ??= errorsAnswer(KEY_NOTE[400], 'BadRequest');
  responses['409'] ??= errorsAnswer(KEY_NOTE[409], 'Conflict');
  responses['422'] ??= errorsAnswer(KEY_NOTE[422], 'UnprocessableEntity');
  for (const status of [400, 409, 422] as const) {
    const answer = responses[String(status)] as Json;
    const description = String(answer.description ?? '');
    if (!description.includes('Idempotency-Key')) answer.description = `${description} Or: ${KEY_NOTE[status]}`.trim();
  }
  for (const [status, answer] of Object.entries(responses) as [string, Json][]) {
    if (/^2/.test(status) || (/^4/.test(status) && !['401', '403', '429'].includes(status))) {
      answer.headers = { ...((answer.headers as Json | undefined) ?? {}), 'Idempotent-Replayed': ref('headers', 'Idempotent-Replayed') };
    }
  }
}
