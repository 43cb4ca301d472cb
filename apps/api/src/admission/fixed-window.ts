import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { WindowCounter } from '@app/runtime/admission';

/** One 60 s rate-limit window, in ms (docs/reference/API-FACTS.md §3.1). */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/**
 * The `store` option of `@fastify/rate-limit` over a {@link WindowCounter}: the plugin's store
 * interface (`incr(key, cb, timeWindow)` answering `{current, ttl}` with `ttl` the ms left in the
 * window, and `child(routeOptions)`), with fixed windows instead of the plugin's sliding ones.
 * `now` is the clock (ms since the epoch), a test's own when given.
 */
export function fixedWindowStore(counter: WindowCounter, now: () => number = Date.now): FastifyRateLimitStoreCtor {
  class FixedWindowStore implements FastifyRateLimitStore {
    constructor(_options?: FastifyRateLimitOptions) {}

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow?: number): void {
      const at = now();
      counter.hit(key, timeWindow ?? RATE_LIMIT_WINDOW_MS, at).then(
        ({ count, windowEndMs }) => callback(null, { current: count, ttl: Math.max(0, windowEndMs - at) }),
        (err: Error) => callback(err),
      );
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  }
  return FixedWindowStore;
}
