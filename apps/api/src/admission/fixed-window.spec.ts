import { MemoryWindowCounter, windowStart } from '@app/runtime/admission';
import { fixedWindowStore } from './fixed-window';

describe('fixed rate-limit windows (docs/reference/API-FACTS.md §3.1)', () => {
  const minute = 60_000;
  const t0 = Date.UTC(2026, 0, 5, 12, 0, 0); // 12:00:00, a window's start

  it('aligns windows to multiples of their length since the epoch', () => {
    expect(windowStart(t0 + 59_999, minute)).toBe(t0);
    expect(windowStart(t0 + 60_000, minute)).toBe(t0 + minute);
  });

  it('counts per key within a window and starts again in the next one, whenever the first request came', async () => {
    const counter = new MemoryWindowCounter();
    expect(await counter.hit('a', minute, t0 + 50_000)).toEqual({ count: 1, windowEndMs: t0 + minute });
    expect(await counter.hit('a', minute, t0 + 59_000)).toEqual({ count: 2, windowEndMs: t0 + minute });
    expect(await counter.hit('b', minute, t0 + 59_500)).toEqual({ count: 1, windowEndMs: t0 + minute });
    // 12:01:00: a new window, though the first request of 'a' was only 10 s ago.
    expect(await counter.hit('a', minute, t0 + 60_000)).toEqual({ count: 1, windowEndMs: t0 + 2 * minute });
  });

  it('keeps the counts it has when more distinct keys arrive than it holds', async () => {
    const counter = new MemoryWindowCounter(2);
    await counter.hit('a', minute, t0);
    await counter.hit('b', minute, t0);
    expect((await counter.hit('c', minute, t0)).count).toBe(1);
    expect((await counter.hit('c', minute, t0)).count).toBe(1);
    expect((await counter.hit('a', minute, t0)).count).toBe(2);
  });

  it('answers the plugin with the count and the ms left in the window', async () => {
    let now = t0 + 45_250;
    const Store = fixedWindowStore(new MemoryWindowCounter(), () => now);
    const store = new Store({}).child({} as never);
    const incr = () =>
      new Promise<unknown>((resolve, reject) => store.incr('k', (err, res) => (err ? reject(err) : resolve(res)), minute, 10));
    expect(await incr()).toEqual({ current: 1, ttl: 14_750 });
    now = t0 + 59_999;
    expect(await incr()).toEqual({ current: 2, ttl: 1 });
  });
});
