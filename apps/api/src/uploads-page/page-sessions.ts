import ipaddr from 'ipaddr.js';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { SessionPool } from './session-pool';

/** Idle. */
export const SESSION_IDLE_MS = 30 * 60_000;
/** Since start, whatever its use (the cookie's `Max-Age`). */
export const SESSION_MAX_MS = 8 * 3_600_000;
/** While any session is held. */
export const SESSION_SWEEP_MS = 60_000;

/** docs/DESIGN.md "The uploads page". */
export interface SessionBounds {
  /** Signed in, per UKPRN: one more ends that provider's oldest. */
  perProvider: number;
  /** Not signed in, per client address (IPv6 by /64): one more ends that address's oldest. */
  perAddress: number;
  signedIn: number;
  anonymous: number;
}

export const SESSION_BOUNDS: SessionBounds = { perProvider: 50, perAddress: 20, signedIn: 10_000, anonymous: 10_000 };

/**
 * `id` the cookie's value, `csrf` the forms' hidden field; once signed in, the provider and its token's hash (never the token). Epoch ms.
 */
export interface PageSession {
  readonly id: string;
  readonly csrfToken: string;
  readonly signedIn: { ukprn: string; tokenHash: string } | null;
  readonly startedAt: number;
  seenAt: number;
}

const expiredAt =
  (now: number) =>
  (session: PageSession): boolean =>
    now - session.seenAt > SESSION_IDLE_MS || now - session.startedAt > SESSION_MAX_MS;

/** 32 random bytes, base64url. */
const secret = () => randomBytes(32).toString('base64url');

/** IPv4 (IPv4-mapped too) as is; IPv6 by its /64 (one household or host's network); anything else as given. */
export function clientOf(address: string): string {
  const bare = address.split('%')[0];
  if (!ipaddr.isValid(bare)) return address;
  const parsed = ipaddr.process(bare);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const groups = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((g) => g.toString(16));
  return `${groups.join(':')}::/64`;
}

/**
 * The uploads page's sessions, server-side in this process (docs/DESIGN.md "The uploads page"): the cookie holds only a random id, so
 * signing out ends a session at once. At a bound a provider or address loses its own oldest, never another's; at a bound in all, expired
 * go first, then the oldest of whoever holds most. A restart ends every session; the sweep's timer is unref'd and armed only while any is
 * held.
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

  get counts(): { signedIn: number; anonymous: number } {
    return { signedIn: this.signedIn.size, anonymous: this.anonymous.size };
  }

  /** `address`: the request's IP. */
  start(address: string): PageSession {
    return this.hold(this.anonymous, clientOf(address), null);
  }

  /** Its idle time restarted; null when unknown, ended or expired. */
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

  /** A new id and CSRF token: no id lives on across the sign-in. */
  signIn(session: PageSession, ukprn: string, tokenHash: string): PageSession {
    this.end(session.id);
    return this.hold(this.signedIn, ukprn, { ukprn, tokenHash });
  }

  end(id: string): void {
    if (this.anonymous.delete(id) || this.signedIn.delete(id)) this.disarmWhenEmpty();
  }

  /** How many. */
  sweep(): number {
    const expired = expiredAt(this.now());
    const ended = this.anonymous.sweep(expired) + this.signedIn.sweep(expired);
    this.disarmWhenEmpty();
    return ended;
  }

  /** The process is closing. */
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

/** Constant time. */
export function csrfTokenMatches(session: PageSession, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(session.csrfToken, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
