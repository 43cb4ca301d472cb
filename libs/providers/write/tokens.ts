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

/**
 * The token carried by an `Authorization` header (docs/reference/API-FACTS.md §2.1): a leading `Bearer ` (exact
 * case, one space) is removed and the rest trimmed; null when nothing is left.
 */
export function tokenFromAuthorizationHeader(header: string | undefined): string | null {
  if (!header) return null;
  const value = (header.startsWith('Bearer ') ? header.slice(7) : header).trim();
  return value.length > 0 ? value : null;
}

const LONDON_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });

/**
 * The calendar date (`YYYY-MM-DD`) of `instant` in Europe/London, the service's time zone: the
 * "today" of token expiry and last use (docs/reference/API-FACTS.md §2.4, §2.7).
 */
export function londonDate(instant: Date): string {
  return LONDON_DATE.format(instant);
}
