import ipaddr from 'ipaddr.js';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PageSessionBounds, PageSessionPool, PageSessionStore, StoredPageSession } from '@app/runtime/page-sessions';

/** Idle. */
export const SESSION_IDLE_MS = 30 * 60_000;
/** Since start, whatever its use (the cookie's `Max-Age`). */
export const SESSION_MAX_MS = 8 * 3_600_000;
/** The expired are deleted this often (MongoDB's TTL index deletes them too). */
export const SESSION_SWEEP_MS = 60_000;
/** A use moves a session's idle expiry only once this long has passed since the last move, so reading a page seldom writes. */
export const SESSION_TOUCH_MS = 60_000;

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

/** What a person may do on the page: `uploader` adds, submits and cancels uploads; `viewer` only reads them. */
export type PageRole = 'uploader' | 'viewer';

/**
 * Who a session is signed in as: the provider (UKPRN, and its name when the sign-in gave one), and either a person (their identity
 * provider's opaque `sub` and their role) or, in the sandbox, an API token (its hash, never the token).
 */
export type SignedInAs =
  | { ukprn: string; providerName: string | null; by: 'person'; userId: string; role: PageRole }
  | { ukprn: string; providerName: string | null; by: 'token'; tokenHash: string };

/** A sign-in sent to the identity provider and not yet back: what its callback must match (OpenID Connect's state and nonce, PKCE). */
export interface PendingLogin {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** `id` the cookie's value, `csrfToken` the forms' hidden field. Epoch ms. */
export interface PageSession {
  readonly id: string;
  readonly csrfToken: string;
  readonly signedIn: SignedInAs | null;
  readonly login: PendingLogin | null;
  readonly startedAt: number;
  readonly seenAt: number;
}

/** What the store keeps of a session beside its key and times. */
interface SessionData {
  csrfToken: string;
  signedIn: SignedInAs | null;
  login: PendingLogin | null;
  seenAt: number;
}

/** 32 random bytes, base64url. */
const secret = () => randomBytes(32).toString('base64url');

/** The store's key: SHA-256 of the cookie's id, so the store's rows give no session away. */
const keyOf = (id: string) => createHash('sha256').update(id).digest('base64url');

const expiresAt = (startedAt: number, seenAt: number) => Math.min(seenAt + SESSION_IDLE_MS, startedAt + SESSION_MAX_MS);

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
 * The uploads page's sessions (docs/DESIGN.md "The uploads page"), kept in the stores (`PageSessionStore`: `state.sqlite`, or MongoDB),
 * so a session outlives a restart and every API process on the same stores serves it. The cookie holds only a random id; the store its
 * hash. Signing out ends a session at once. At a bound a provider or address loses its own oldest, never another's; at a bound in all,
 * expired go first, then the oldest of whoever holds most. The sweep's timer runs from {@link startSweeping} to {@link close}, unref'd.
 */
export class PageSessions {
  private sweeper: NodeJS.Timeout | null = null;
  private readonly now: () => number;
  private readonly bounds: Record<PageSessionPool, PageSessionBounds>;

  constructor(
    private readonly store: PageSessionStore,
    options: { now?: () => number; bounds?: SessionBounds } = {},
  ) {
    const bounds = options.bounds ?? SESSION_BOUNDS;
    this.now = options.now ?? Date.now;
    this.bounds = {
      anonymous: { perOwner: bounds.perAddress, all: bounds.anonymous },
      'signed-in': { perOwner: bounds.perProvider, all: bounds.signedIn },
    };
  }

  async counts(): Promise<{ signedIn: number; anonymous: number }> {
    return { signedIn: await this.store.count('signed-in'), anonymous: await this.store.count('anonymous') };
  }

  /** `address`: the request's IP. */
  start(address: string): Promise<PageSession> {
    return this.hold('anonymous', clientOf(address), null);
  }

  /** Its idle time restarted (at most every {@link SESSION_TOUCH_MS}); null when unknown, ended or expired. */
  async find(id: string | undefined): Promise<PageSession | null> {
    if (!id) return null;
    const now = this.now();
    const stored = await this.store.find(keyOf(id), now);
    if (!stored) return null;
    const data = JSON.parse(stored.data) as SessionData;
    if (now - data.seenAt >= SESSION_TOUCH_MS) {
      data.seenAt = now;
      if (!(await this.store.update(stored.key, JSON.stringify(data), expiresAt(stored.startedAt, now)))) return null;
    }
    return { id, csrfToken: data.csrfToken, signedIn: data.signedIn, login: data.login, startedAt: stored.startedAt, seenAt: data.seenAt };
  }

  /** A new id and CSRF token: no id lives on across the sign-in. */
  async signIn(session: PageSession, as: SignedInAs): Promise<PageSession> {
    await this.end(session.id);
    return this.hold('signed-in', as.ukprn, as);
  }

  /** Remembers a sign-in sent to the identity provider (null: forgets it); the session as it now is, or null when it has ended. */
  async beginLogin(session: PageSession, login: PendingLogin | null): Promise<PageSession | null> {
    const now = this.now();
    const data: SessionData = { csrfToken: session.csrfToken, signedIn: session.signedIn, login, seenAt: now };
    const kept = await this.store.update(keyOf(session.id), JSON.stringify(data), expiresAt(session.startedAt, now));
    return kept ? { ...session, login, seenAt: now } : null;
  }

  async end(id: string): Promise<void> {
    await this.store.remove(keyOf(id));
  }

  /** How many expired sessions were deleted. */
  sweep(): Promise<number> {
    return this.store.removeExpired(this.now());
  }

  /** Sweeps every {@link SESSION_SWEEP_MS} until {@link close}; a failed sweep goes to `failed` and the next one tries again. */
  startSweeping(failed: (err: unknown) => void): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => void this.sweep().catch(failed), SESSION_SWEEP_MS);
    this.sweeper.unref();
  }

  /** The process is closing: the sweep stops and the store closes. */
  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    await this.store.close();
  }

  private async hold(pool: PageSessionPool, owner: string, signedIn: SignedInAs | null): Promise<PageSession> {
    const now = this.now();
    const session: PageSession = { id: secret(), csrfToken: secret(), signedIn, login: null, startedAt: now, seenAt: now };
    const data: SessionData = { csrfToken: session.csrfToken, signedIn, login: null, seenAt: now };
    const stored: StoredPageSession = {
      key: keyOf(session.id),
      pool,
      owner,
      data: JSON.stringify(data),
      startedAt: now,
      expiresAt: expiresAt(now, now),
    };
    await this.store.add(stored, this.bounds[pool], now);
    return session;
  }
}

/** Constant time. */
export function csrfTokenMatches(session: PageSession, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(session.csrfToken, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
