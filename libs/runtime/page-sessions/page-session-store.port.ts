/**
 * The uploads page's sessions as stored (docs/DESIGN.md "The uploads page"): outside the process, so a session outlives a restart and
 * every API process on the same stores serves it. The store keeps what the page gives it and enforces the bounds; the page decides
 * what a session holds.
 */

/** The bound a session counts against: a sign-in's (per client address) or a signed-in person's (per provider). */
export type PageSessionPool = 'anonymous' | 'signed-in';

/** One session as stored. Times are epoch milliseconds. */
export interface StoredPageSession {
  /** SHA-256 of the cookie's id, base64url: the id itself is never stored. */
  key: string;
  pool: PageSessionPool;
  /** The client address (anonymous) or the UKPRN (signed in). */
  owner: string;
  /** What the page keeps, JSON text; the store never reads it. */
  data: string;
  startedAt: number;
  /** Past it the session is gone (idle or too old), swept or not. */
  expiresAt: number;
}

/** Per owner of a pool, and in all of it. */
export interface PageSessionBounds {
  perOwner: number;
  all: number;
}

export interface PageSessionStore {
  /**
   * Adds `session` under `bounds` of its pool: an owner at `perOwner` loses its oldest; else a pool at `all` loses its expired
   * sessions, or when none has expired, the oldest of the owner holding most (ties: the newcomer's owner). Oldest: added first.
   */
  add(session: StoredPageSession, bounds: PageSessionBounds, nowMs: number): Promise<void>;
  /** Null when absent or expired at `nowMs`. */
  find(key: string, nowMs: number): Promise<StoredPageSession | null>;
  /** Replaces its data and expiry; false when it is gone. */
  update(key: string, data: string, expiresAt: number): Promise<boolean>;
  /** Whether one was held. */
  remove(key: string): Promise<boolean>;
  /** Deletes those expired at `nowMs`; how many. */
  removeExpired(nowMs: number): Promise<number>;
  /** Held in `pool`, expired ones not yet removed included. */
  count(pool: PageSessionPool): Promise<number>;
  close(): Promise<void> | void;
}

export const PAGE_SESSION_STORE = Symbol('PAGE_SESSION_STORE');
