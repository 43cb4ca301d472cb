import { createHash } from 'node:crypto';

/**
 * API tokens (docs/reference/API-FACTS.md §2.2–2.3): `<environment>_<64 lower-case hex>` from 32 random bytes that
 * the caller supplies. Only the SHA-256 hash (lower-case hex) is stored: the token carries 256
 * random bits, so a fast unsalted hash cannot be brute-forced.
 */
export function formatToken(environment: string, randomBytes32: Uint8Array): string {
  if (randomBytes32.length !== 32) throw new Error('a token needs 32 random bytes');
  return `${environment}_${Buffer.from(randomBytes32).toString('hex')}`;
}

/** SHA-256 of the token, lower-case hex. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** `Bearer`, one space, then RFC 6750 §2.1's b64token (letters, digits, `-._~+/`, then `=` padding). */
const BEARER_CREDENTIALS = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/;

/**
 * The token carried by an `Authorization` header: `Bearer`, exactly one space and the token as
 * RFC 6750 §2.1 spells it, nothing before or after (docs/DESIGN.md ruling 20). Anything else (a bare
 * token, another scheme or case, more or other white space, an empty token) gives null: the caller
 * answers 401.
 */
export function tokenFromAuthorizationHeader(header: string | undefined): string | null {
  if (!header) return null;
  const match = BEARER_CREDENTIALS.exec(header);
  return match ? match[1] : null;
}

const LONDON_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });

/**
 * The calendar date (`YYYY-MM-DD`) of `instant` in Europe/London, the service's time zone: the
 * "today" of token expiry and last use (docs/reference/API-FACTS.md §2.4, §2.7).
 */
export function londonDate(instant: Date): string {
  return LONDON_DATE.format(instant);
}
