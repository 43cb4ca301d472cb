/**
 * The contract every rate-limit window counter passes (libs/runtime/admission/window-counter.ts;
 * docs/operations.md "Limits"): one count per key in fixed windows aligned to the epoch, a new
 * window counting from 1, first hits at once counted once each, and, for a counter shared by
 * replicas, one count across them.
 */
import type { WindowCounter } from '@app/runtime/admission';

/** A counter on fresh storage; `another`, for a shared counter, opens one on the same storage (another replica). */
export interface WindowCounterFixture {
  counter: WindowCounter;
  another?(): Promise<WindowCounter>;
  cleanup(): Promise<void>;
}

/**
 * Registers the contract for counter `name`. `shared`: the counter is shared by the API replicas
 * (its fixture has `another`), and the replicas' case is registered too.
 */

/**
 * The start of a minute window near now: a counter whose server deletes past windows by itself
 * (MongoDB's TTL index on the window's end plus a minute) deletes none mid-test.
 */
const windowNearNow = (): number => Math.floor(Date.now() / 60_000) * 60_000;

export function describeWindowCounterContract(name: string, open: () => Promise<WindowCounterFixture>, shared: boolean): void {
  describe(`Window counter contract: ${name}`, () => {
    let fx: WindowCounterFixture;
    beforeEach(async () => {
      fx = await open();
    });
    afterEach(() => fx.cleanup());

    it('counts each key per fixed window aligned to the epoch; the next window counts from 1', async () => {
      const t0 = windowNearNow();
      expect(await fx.counter.hit('ip:1', 60_000, t0 + 5)).toEqual({ count: 1, windowEndMs: t0 + 60_000 });
      expect(await fx.counter.hit('ip:1', 60_000, t0 + 59_999)).toEqual({ count: 2, windowEndMs: t0 + 60_000 });
      expect(await fx.counter.hit('ip:2', 60_000, t0 + 10)).toEqual({ count: 1, windowEndMs: t0 + 60_000 });
      expect(await fx.counter.hit('ip:1', 60_000, t0 + 60_000)).toEqual({ count: 1, windowEndMs: t0 + 120_000 });
    });

    it('counts first hits made at once one each', async () => {
      const t0 = windowNearNow();
      const counts = await Promise.all(Array.from({ length: 5 }, (_, i) => fx.counter.hit('tok:1', 60_000, t0 + i)));
      expect(counts.map((c) => c.count).sort()).toEqual([1, 2, 3, 4, 5]);
    });

    if (!shared) return;
    it('keeps one count across replicas', async () => {
      const other = await fx.another!();
      const t0 = windowNearNow();
      const first = await Promise.all([fx.counter.hit('ip:1', 60_000, t0 + 5), other.hit('ip:1', 60_000, t0 + 7)]);
      expect(first.map((r) => r.count).sort()).toEqual([1, 2]);
      expect(await other.hit('ip:1', 60_000, t0 + 59_999)).toEqual({ count: 3, windowEndMs: t0 + 60_000 });
    });
  });
}
