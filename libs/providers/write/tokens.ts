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

/** What the real service takes away before the token: `Bearer` in that case and one space (docs/reference/API-FACTS.md §2.1). */
const BEARER_PREFIX = 'Bearer ';

/**
 * The token carried by an `Authorization` header, as the real service reads it (docs/DESIGN.md
 * ruling 20; docs/reference/API-FACTS.md §2.1): a leading `Bearer ` (that case, one space) is
 * removed when present and the rest, trimmed, is the token, so a bare token is accepted. Any other
 * scheme word (`bearer x`) stays part of the token, which then matches none. Null for no header or
 * nothing left: the caller answers 401.
 */
export function tokenFromAuthorizationHeader(header: string | undefined): string | null {
  if (!header) return null;
  const token = (header.startsWith(BEARER_PREFIX) ? header.slice(BEARER_PREFIX.length) : header).trim();
  return token === '' ? null : token;
}

const LONDON_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });

/**
 * The calendar date (`YYYY-MM-DD`) of `instant` in Europe/London, the service's time zone: the
 * "today" of token expiry and last use (docs/reference/API-FACTS.md §2.4, §2.7).
 */
export function londonDate(instant: Date): string {
  return LONDON_DATE.format(instant);
}
