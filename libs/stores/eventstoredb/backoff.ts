/**
 * Reconnection delays of the EventStoreDB subscription: exponential backoff with jitter.
 */

/** Settings of {@link computeBackoffMs}, in milliseconds. */
export interface BackoffOptions {
  /** Delay ceiling of the first retry. Default 100. */
  initialMs?: number;
  /** Largest delay ceiling. Default 5000. */
  maxMs?: number;
}

/** Default first delay ceiling of a resubscription, in milliseconds. */
export const DEFAULT_BACKOFF_INITIAL_MS = 100;
/** Default largest delay of a resubscription, in milliseconds. */
export const DEFAULT_BACKOFF_MAX_MS = 5000;

/**
 * Milliseconds to wait before retry number `attempt` (0 for the first retry after a drop).
 *
 * The ceiling doubles per attempt from `initialMs` up to `maxMs` (100, 200, 400, … 5000 by default);
 * the delay is drawn uniformly from the upper half of the ceiling ("equal jitter"), so retries of
 * many subscribers spread out while each still waits at least half the ceiling. `random` returns a
 * number in [0, 1) (default `Math.random`; injectable for tests). Returns an integer.
 * Throws a RangeError for a negative or fractional attempt, or non-positive/inverted bounds.
 */
export function computeBackoffMs(attempt: number, options: BackoffOptions = {}, random: () => number = Math.random): number {
  const initialMs = options.initialMs ?? DEFAULT_BACKOFF_INITIAL_MS;
  const maxMs = options.maxMs ?? DEFAULT_BACKOFF_MAX_MS;
  if (!Number.isInteger(attempt) || attempt < 0) throw new RangeError(`attempt must be an integer ≥ 0, got ${attempt}`);
  if (!(initialMs > 0) || !(maxMs >= initialMs) || !Number.isFinite(maxMs)) {
    throw new RangeError(`backoff bounds must satisfy 0 < initialMs ≤ maxMs < ∞, got ${initialMs} and ${maxMs}`);
  }
  // 2 ** attempt overflows to Infinity for large attempts; Math.min keeps the ceiling finite.
  const ceiling = Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 1024));
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(ceiling / 2 + (ceiling / 2) * r);
}
