/** In ms: the first retry's delay ceiling and the largest. */
export interface BackoffOptions {
  initialMs?: number;
  maxMs?: number;
}

export const DEFAULT_BACKOFF_INITIAL_MS = 100;
export const DEFAULT_BACKOFF_MAX_MS = 5000;

/**
 * Ms before retry `attempt` (0: the first): the ceiling doubles from `initialMs` to `maxMs`, the delay drawn from its upper half ("equal
 * jitter"), so many subscribers spread out while each waits at least half. RangeError for a bad attempt or bounds.
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
