/**
 * Counts requests per key in fixed windows aligned to multiples of the window length since the
 * epoch (docs/reference/API-FACTS.md §3.1: a window starts at 12:00:00, 12:01:00, …, not at a
 * client's first request). `hit` adds one request of `key` to the window holding `nowMs` and
 * returns the window's count so far and its end (ms since the epoch).
 */
export interface WindowCounter {
  hit(key: string, windowMs: number, nowMs: number): Promise<{ count: number; windowEndMs: number }>;
}

/** The start of the fixed window of `windowMs` holding `nowMs`. */
export function windowStart(nowMs: number, windowMs: number): number {
  return Math.floor(nowMs / windowMs) * windowMs;
}

/**
 * A {@link WindowCounter} in this process's memory (one API replica; `MONGODB_URL` selects the
 * shared one). Only the current window is kept: when the clock enters a new window every count is
 * dropped, so memory holds at most the keys seen in one window, and at most `maxKeys` of them: a
 * flood of distinct keys past that is not counted (each answered as a first request) rather than
 * grow memory without bound or forget the keys already counted.
 */
export class MemoryWindowCounter implements WindowCounter {
  private start = -1;
  private counts = new Map<string, number>();

  constructor(private readonly maxKeys = 100_000) {}

  async hit(key: string, windowMs: number, nowMs: number): Promise<{ count: number; windowEndMs: number }> {
    const start = windowStart(nowMs, windowMs);
    if (start !== this.start) {
      this.start = start;
      this.counts = new Map();
    }
    if (this.counts.size >= this.maxKeys && !this.counts.has(key)) return { count: 1, windowEndMs: start + windowMs };
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return { count, windowEndMs: start + windowMs };
  }
}
