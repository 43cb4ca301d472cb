/**
 * Where the answers of writes sent with an `Idempotency-Key` are kept, per token, so a retry after
 * a lost answer gets the first answer again instead of a second write (docs/operations.md "Limits",
 * idempotent retries). The store is outside the projection stores (on SQLite the state file,
 * `state.sqlite`, apart from the read models; on MongoDB a collection beside them), so a rebuild or
 * swap of a projection, or a damaged read store built afresh, keeps every key.
 */

/** How long an answer is kept for replay: 24 hours after the first request. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * How long a claim without an answer holds its key: a process that died mid-request leaves one,
 * and after this long a retry may run again (well beyond every request timeout of the API).
 */
export const IDEMPOTENCY_CLAIM_LEASE_MS = 2 * 60 * 1000;

/** The answer kept for a key: status, content type and the body as it was sent. */
export interface StoredAnswer {
  status: number;
  contentType: string;
  body: string;
}

/**
 * What {@link IdempotencyStore.claim} found:
 * - `claimed`: the key was free (or expired); the caller runs the request, then `complete`s or
 *   `release`s the claim it was given;
 * - `replay`: an answer is kept for the same request;
 * - `in-progress`: the same request holds the key and has not answered yet;
 * - `mismatch`: the key belongs to another request (another fingerprint).
 */
export type IdempotencyClaim =
  | { outcome: 'claimed'; claim: string }
  | { outcome: 'replay'; answer: StoredAnswer }
  | { outcome: 'in-progress' }
  | { outcome: 'mismatch' };

/**
 * The port. `scope` is the caller's token id (keys of different tokens never meet); `fingerprint`
 * identifies the request (a hash of method, path and canonical body). Every method takes the time
 * from its caller (`now`), so expiry is tested without waiting. The unique (scope, key) of the
 * store decides between concurrent claims, in one process or many.
 */
export interface IdempotencyStore {
  /** Claims `key` for `fingerprint`, or says what holds it; expired entries and stale claims count as free. */
  claim(scope: string, key: string, fingerprint: string, now: Date): Promise<IdempotencyClaim>;
  /** Keeps `answer` for the key this `claim` holds (nothing when the claim was lost). */
  complete(scope: string, key: string, claim: string, answer: StoredAnswer): Promise<void>;
  /** Frees the key this `claim` holds, so a retry runs again (an answer not worth replaying). */
  release(scope: string, key: string, claim: string): Promise<void>;
  /** Deletes the entries expired at `now`; returns how many. */
  prune(now: Date): Promise<number>;
  /**
   * Deletes the kept answers whose body holds `text` (an erased trainee's id: its answers hold its
   * personal data; docs/DESIGN.md "Personal data"); returns how many. A scan of at most a day's keys.
   */
  forget(text: string): Promise<number>;
  close(): Promise<void> | void;
}

/** Injection token of the {@link IdempotencyStore}. */
export const IDEMPOTENCY_STORE = Symbol('IDEMPOTENCY_STORE');
