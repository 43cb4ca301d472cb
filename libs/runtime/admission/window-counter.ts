/**
 * Counts requests per key in fixed windows aligned to the epoch (API-FACTS §3.1: windows start at 12:00:00, 12:01:00, …); `hit` returns
 * the window's count so far and its end (epoch ms).
 */
export interface WindowCounter {
  hit(key: string, windowMs: number, nowMs: number): Promise<{ count: number; windowEndMs: number }>;
}

export function windowStart(nowMs: number, windowMs: number): number {
  return Math.floor(nowMs / windowMs) * windowMs;
}

/**
 * In this process's memory (one API replica; MongoDB's is shared). Only the current window is kept, at most `maxKeys` keys: a flood of
 * distinct keys past that goes uncounted rather than grow memory or forget the keys counted.
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
