import ipaddr from 'ipaddr.js';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { SessionPool } from './session-pool';

/** A session ends this long after its last request: 30 minutes. */
export const SESSION_IDLE_MS = 30 * 60_000;
/** …and this long after it started, whatever its use: 8 hours (the cookie's `Max-Age`). */
export const SESSION_MAX_MS = 8 * 3_600_000;
/** How often expired sessions are swept while any session is held: every minute. */
export const SESSION_SWEEP_MS = 60_000;

/** The bounds of the sessions held (docs/DESIGN.md "The uploads page"; docs/operations.md "Limits"). */
export interface SessionBounds {
  /** Signed-in sessions of one provider (UKPRN): one more ends that provider's oldest. */
  perProvider: number;
  /** Sessions not yet signed in from one client address (an IPv6 address by its /64): one more ends that address's oldest. */
  perAddress: number;
  /** Signed-in sessions in all. */
  signedIn: number;
  /** Sessions not yet signed in, in all. */
  anonymous: number;
}

/** 50 signed-in sessions a provider, 20 not signed in an address, 10,000 of each kind in all. */
export const SESSION_BOUNDS: SessionBounds = { perProvider: 50, perAddress: 20, signedIn: 10_000, anonymous: 10_000 };

/**
 * One browser's session: its id (the cookie's value), its CSRF token (the forms' hidden field), and
 * once signed in, the provider and the hash of the token it signed in with (never the token).
 * Times are epoch milliseconds.
 */
export interface PageSession {
  readonly id: string;
  readonly csrfToken: string;
  readonly signedIn: { ukprn: string; tokenHash: string } | null;
  readonly startedAt: number;
  seenAt: number;
}

/** Whether a session has expired at `now` (epoch ms): idle too long, or too old. */
const expiredAt =
  (now: number) =>
  (session: PageSession): boolean =>
    now - session.seenAt > SESSION_IDLE_MS || now - session.startedAt > SESSION_MAX_MS;

/** 32 random bytes, base64url: a session id or a CSRF token. */
const secret = () => randomBytes(32).toString('base64url');

/**
 * The client an address stands for when counting sessions not yet signed in: an IPv4 address (an
 * IPv4-mapped IPv6 one too) as is, an IPv6 address by its /64 (one household or host's network),
 * anything else as given.
 */
export function clientOf(address: string): string {
  const bare = address.split('%')[0];
  if (!ipaddr.isValid(bare)) return address;
  const parsed = ipaddr.process(bare);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const groups = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((g) => g.toString(16));
  return `${groups.join(':')}::/64`;
}

/**
 * The uploads page's sessions, held server-side in this process, in this one place (docs/DESIGN.md
 * "The uploads page"): the cookie carries only a random id, so signing out ends a session at once,
 * and a session holds no token. A session ends after {@link SESSION_IDLE_MS} idle or
 * {@link SESSION_MAX_MS} in all. A restart ends every session.
 *
 * Bounds ({@link SESSION_BOUNDS}): signed-in sessions at most 50 a provider and 10,000 in all; not
 * yet signed in (a sign-in form's CSRF token), held apart, at most 20 a client address and 10,000
 * in all. A provider or address at its bound loses its own oldest session, never another's; at a
 * bound in all, expired sessions go first, then the oldest of the provider (address) holding the
 * most. So one provider signing in without end, or one address opening forms, signs no one else
 * out. Expired sessions are swept every {@link SESSION_SWEEP_MS} while any is held, on a timer that
 * keeps no process alive and is not armed while none is held.
 */
export class PageSessions {
  private readonly anonymous: SessionPool<PageSession>;
  private readonly signedIn: SessionPool<PageSession>;
  private sweeper: NodeJS.Timeout | null = null;
  private readonly now: () => number;

  constructor(options: { now?: () => number; bounds?: SessionBounds } = {}) {
    const bounds = options.bounds ?? SESSION_BOUNDS;
    this.now = options.now ?? Date.now;
    this.anonymous = new SessionPool(bounds.perAddress, bounds.anonymous);
    this.signedIn = new SessionPool(bounds.perProvider, bounds.signedIn);
  }

  /** Sessions held: signed in and not yet. */
  get counts(): { signedIn: number; anonymous: number } {
    return { signedIn: this.signedIn.size, anonymous: this.anonymous.size };
  }

  /** A new session, not signed in, for a browser at client address `address` (the request's IP). */
  start(address: string): PageSession {
    return this.hold(this.anonymous, clientOf(address), null);
  }

  /** The live session of `id` (its idle time restarted), or null: unknown, ended or expired. */
  find(id: string | undefined): PageSession | null {
    if (!id) return null;
    const session = this.signedIn.get(id) ?? this.anonymous.get(id);
    if (!session) return null;
    if (expiredAt(this.now())(session)) {
      this.end(id);
      return null;
    }
    session.seenAt = this.now();
    return session;
  }

  /** Ends `session` and starts a signed-in one with a new id and CSRF token (no id lives on across the sign-in). */
  signIn(session: PageSession, ukprn: string, tokenHash: string): PageSession {
    this.end(session.id);
    return this.hold(this.signedIn, ukprn, { ukprn, tokenHash });
  }

  /** Ends the session of `id`, if any. */
  end(id: string): void {
    if (this.anonymous.delete(id) || this.signedIn.delete(id)) this.disarmWhenEmpty();
  }

  /** Ends every expired session; how many. */
  sweep(): number {
    const expired = expiredAt(this.now());
    const ended = this.anonymous.sweep(expired) + this.signedIn.sweep(expired);
    this.disarmWhenEmpty();
    return ended;
  }

  /** Stops the sweep's timer (the process is closing); sessions held stay until then. */
  close(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
  }

  private hold(pool: SessionPool<PageSession>, owner: string, signedIn: PageSession['signedIn']): PageSession {
    const now = this.now();
    const session: PageSession = { id: secret(), csrfToken: secret(), signedIn, startedAt: now, seenAt: now };
    pool.add(session.id, owner, session, expiredAt(now));
    if (!this.sweeper) {
      this.sweeper = setInterval(() => this.sweep(), SESSION_SWEEP_MS);
      this.sweeper.unref();
    }
    return session;
  }

  private disarmWhenEmpty(): void {
    if (this.anonymous.size + this.signedIn.size === 0) this.close();
  }
}

/** Whether `given` (a form's hidden field) is the session's CSRF token, compared in constant time. */
export function csrfTokenMatches(session: PageSession, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(session.csrfToken, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
