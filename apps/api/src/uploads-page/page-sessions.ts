import { randomBytes, timingSafeEqual } from 'node:crypto';

/** A session ends this long after its last request: 30 minutes. */
export const SESSION_IDLE_MS = 30 * 60_000;
/** …and this long after it started, whatever its use: 8 hours (the cookie's `Max-Age`). */
export const SESSION_MAX_MS = 8 * 3_600_000;
/** Sessions held at most, of each kind (signed in, not yet signed in): the oldest goes first. */
export const SESSIONS_MAX = 10_000;

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

/** 32 random bytes, base64url: a session id or a CSRF token. */
const secret = () => randomBytes(32).toString('base64url');

/**
 * The uploads page's sessions, held server-side in this process (docs/DESIGN.md "The uploads
 * page"): the cookie carries only a random id, so signing out ends a session at once, and a
 * session holds no token. A session ends after {@link SESSION_IDLE_MS} idle or {@link SESSION_MAX_MS}
 * in all. Sessions not signed in (a sign-in form's CSRF token) are held apart from signed-in ones,
 * each at most {@link SESSIONS_MAX}, so that forms opened by the thousand cannot push out a
 * signed-in session. A restart ends every session.
 */
export class PageSessions {
  private readonly anonymous = new Map<string, PageSession>();
  private readonly signedIn = new Map<string, PageSession>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A new session, not signed in. */
  start(): PageSession {
    return this.hold(this.anonymous, null);
  }

  /** The live session of `id` (its idle time restarted), or null: unknown, ended or expired. */
  find(id: string | undefined): PageSession | null {
    if (!id) return null;
    const map = this.signedIn.has(id) ? this.signedIn : this.anonymous;
    const session = map.get(id);
    if (!session) return null;
    const now = this.now();
    if (now - session.seenAt > SESSION_IDLE_MS || now - session.startedAt > SESSION_MAX_MS) {
      map.delete(id);
      return null;
    }
    session.seenAt = now;
    return session;
  }

  /** Ends `session` and starts a signed-in one with a new id and CSRF token (no id lives on across the sign-in). */
  signIn(session: PageSession, ukprn: string, tokenHash: string): PageSession {
    this.end(session.id);
    return this.hold(this.signedIn, { ukprn, tokenHash });
  }

  /** Ends the session of `id`, if any. */
  end(id: string): void {
    this.anonymous.delete(id);
    this.signedIn.delete(id);
  }

  private hold(map: Map<string, PageSession>, signedIn: PageSession['signedIn']): PageSession {
    const now = this.now();
    const session: PageSession = { id: secret(), csrfToken: secret(), signedIn, startedAt: now, seenAt: now };
    map.set(session.id, session);
    // Maps keep insertion order: the first key is the oldest session.
    while (map.size > SESSIONS_MAX) map.delete(map.keys().next().value!);
    return session;
  }
}

/** Whether `given` (a form's hidden field) is the session's CSRF token, compared in constant time. */
export function csrfTokenMatches(session: PageSession, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(session.csrfToken, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
