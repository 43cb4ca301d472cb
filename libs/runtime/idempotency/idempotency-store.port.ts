/**
 * Answers of writes sent with an `Idempotency-Key`, per token, so a retry gets the first answer again (docs/operations.md "Limits");
 * outside the projection stores, so a rebuild keeps every key.
 */

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** A claim without an answer (a process died mid-request) frees its key after this: well beyond every request timeout. */
export const IDEMPOTENCY_CLAIM_LEASE_MS = 2 * 60 * 1000;

/** The body as it was sent. */
export interface StoredAnswer {
  status: number;
  contentType: string;
  body: string;
}

/**
 * `claimed`: the caller runs the request, then `complete`s or `release`s; `replay`: an answer is kept; `in-progress`: the same request
 * has not answered yet; `mismatch`: another request (fingerprint) holds the key.
 */
export type IdempotencyClaim =
  | { outcome: 'claimed'; claim: string }
  | { outcome: 'replay'; answer: StoredAnswer }
  | { outcome: 'in-progress' }
  | { outcome: 'mismatch' };

/**
 * `scope`: the token id; `fingerprint`: a hash of method, path and canonical body; `now` from the caller. The store's unique (scope,
 * key) decides between concurrent claims across processes.
 */
export interface IdempotencyStore {
  /** Expired entries and stale claims count as free. */
  claim(scope: string, key: string, fingerprint: string, now: Date): Promise<IdempotencyClaim>;
  /** Nothing when the claim was lost. */
  complete(scope: string, key: string, claim: string, answer: StoredAnswer): Promise<void>;
  /** So a retry runs again: an answer not worth replaying. */
  release(scope: string, key: string, claim: string): Promise<void>;
  /** How many. */
  prune(now: Date): Promise<number>;
  /** Answers whose body holds `text` (an erased trainee's id); how many. A scan of at most a day's keys. */
  forget(text: string): Promise<number>;
  close(): Promise<void> | void;
}

export const IDEMPOTENCY_STORE = Symbol('IDEMPOTENCY_STORE');
