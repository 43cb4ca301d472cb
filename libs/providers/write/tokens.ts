import { createHash } from 'node:crypto';

/**
 * `<environment>_<64 lower-case hex>` (API-FACTS §2.2–2.3). Only its SHA-256 is stored: 256 random bits make a fast unsalted hash
 * safe from brute force.
 */
export function formatToken(environment: string, randomBytes32: Uint8Array): string {
  if (randomBytes32.length !== 32) throw new Error('a token needs 32 random bytes');
  return `${environment}_${Buffer.from(randomBytes32).toString('hex')}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** API-FACTS §2.1: that case, one space. */
const BEARER_PREFIX = 'Bearer ';

/**
 * The token as the real service reads it (docs/DESIGN.md ruling 20; API-FACTS §2.1): a leading `Bearer ` removed, the rest trimmed,
 * so a bare token is accepted and another scheme word stays part of the token. Null for no header or nothing left (401).
 */
export function tokenFromAuthorizationHeader(header: string | undefined): string | null {
  if (!header) return null;
  const token = (header.startsWith(BEARER_PREFIX) ? header.slice(BEARER_PREFIX.length) : header).trim();
  return token === '' ? null : token;
}

const LONDON_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });

/** `YYYY-MM-DD` in Europe/London, the service's time zone: the "today" of token expiry and use (API-FACTS §2.4, §2.7). */
export function londonDate(instant: Date): string {
  return LONDON_DATE.format(instant);
}
