import {
  BODY_MAX_TEXT,
  DISABILITY_KEYS_MAX,
  JSON_MAX_DEPTH,
  JSON_MAX_ITEMS,
  REASON_TEXT_MAX_CHARS,
  TEXT_MAX_CHARS,
} from '@app/trainees/record';
import { TRAINEE_DEGREES_MAX, TRAINEE_PLACEMENTS_MAX } from '@app/trainees/decider';
import type { AppConfig } from '@app/runtime/process';
import { UPLOAD_BYTES_MAX, UPLOAD_RECORDS_MAX, UPLOAD_ROWS_MAX } from '@app/uploads/decider';
import { PER_PAGE_MAX } from '../trainees/list-trainees/list-trainees.params';
import { PAGE_LIMIT_MAX } from '../query-params/cursor-page';
import { QUERY_VALUE_MAX_CHARS } from '../query-params/query-values';
import { PENDING_RETRY_AFTER_SECONDS } from '@app/uploads/write';

/** The figures of the configuration that the limits text states. */
export type LimitSettings = Pick<
  AppConfig,
  | 'rateLimitIpPerMinute'
  | 'rateLimitTokenPerMinute'
  | 'requestTimeoutMs'
  | 'headersTimeoutMs'
  | 'connectionTimeoutMs'
  | 'keepAliveTimeoutMs'
  | 'maxRequestsPerSocket'
  | 'maxConnections'
  | 'uploadQuotas'
>;

/** "100 requests per 60-second window" or "off". */
function perWindow(n: number): string {
  return n > 0 ? `${n} requests per fixed 60-second window` : 'off';
}

/** "30 s", or "none" for 0. */
function seconds(ms: number): string {
  return ms > 0 ? `${ms / 1000} s` : 'none';
}

/** "10 MB" for whole mebibytes, else "N bytes". */
function bytes(n: number): string {
  return n % 1_048_576 === 0 ? `${n / 1_048_576} MB` : `${n.toLocaleString('en-GB')} bytes`;
}

/**
 * The "Limits" section of the OpenAPI documents' description (Markdown), with the figures this
 * process runs with: rate limits, sizes, uploads, timeouts, idempotency and token expiry (docs/operations.md
 * "Limits", which says the same with the defaults, and "Configuration"; why: docs/DESIGN.md ruling 14).
 */
export function limitsDescription(config: LimitSettings): string {
  return `## Limits

- **Rate limits** (paths under \`/api\`, checked before the token; docs/reference/API-FACTS.md §3): per client IP
  ${perWindow(config.rateLimitIpPerMinute)}, per token ${perWindow(config.rateLimitTokenPerMinute)}; windows
  are aligned to the minute. Over a limit: 429, \`text/plain\` \`Retry later\`, \`Retry-After\` in whole
  seconds. Answers under \`/api\` carry \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`.
  A blocked IP or user agent gets 403 \`Forbidden\`.
- **Bodies**: at most ${BODY_MAX_TEXT} (413), nested at most ${JSON_MAX_DEPTH} levels, at most ${JSON_MAX_ITEMS} items in
  any array or object (400). Text fields have a \`maxLength\` or \`pattern\` in their schema (${TEXT_MAX_CHARS}
  characters for most free text, ${REASON_TEXT_MAX_CHARS} for reasons); at most ${DISABILITY_KEYS_MAX}
  \`disabilityN\` keys. A trainee holds at most ${TRAINEE_PLACEMENTS_MAX} placements and ${TRAINEE_DEGREES_MAX}
  degrees however they are added (422).
- **Lists**: \`per_page\` at most ${PER_PAGE_MAX}; the change feed's and a trainee history's \`limit\` at most
  ${PAGE_LIMIT_MAX}; \`since\`, \`academic_cycle\`, \`has_trn\` and \`as_of\` at most ${QUERY_VALUE_MAX_CHARS} characters (422 above).
- **Ids in a path**: at most 255 characters; a longer one names nothing (404).
- **Uploads**: a CSV file at most ${bytes(UPLOAD_BYTES_MAX)} (413), ${UPLOAD_ROWS_MAX.toLocaleString('en-GB')} trainee rows
  and ${UPLOAD_RECORDS_MAX.toLocaleString('en-GB')} rows after the header in all, blank ones included (422 naming the bound).
  Each provider has at most ${config.uploadQuotas.pendingMax} files waiting for their check and uploads at most
  ${bytes(config.uploadQuotas.dailyBytes)} of files in a UTC day; past either, 429 in the error shape, naming the limit,
  with \`Retry-After\` (${PENDING_RETRY_AFTER_SECONDS} s for the files waiting, the seconds to midnight UTC for the bytes).
- **Time**: a request must arrive whole within ${seconds(config.requestTimeoutMs)} and its headers within
  ${seconds(config.headersTimeoutMs)} (408, connection closed); a silent connection is closed after
  ${seconds(config.connectionTimeoutMs)}, an idle keep-alive one after ${seconds(config.keepAliveTimeoutMs)};
  at most ${config.maxRequestsPerSocket || 'unlimited'} requests per connection and ${config.maxConnections || 'unlimited'}
  connections. Headers over 16 KiB: 431.
- **Idempotent retries**: every POST, PUT, PATCH and DELETE takes an \`Idempotency-Key\` (1 to 255 visible
  ASCII characters), kept per token for 24 hours: the same request again answers the first answer
  (\`Idempotent-Replayed: true\`), the key with another request 422, while the first still runs 409.
- **Tokens** expire on their expiry date (at most 6 months after issue; docs/reference/API-FACTS.md
  §2.4–2.6); an expired token answers 401.`;
}
