/**
 * Resubscription backoff (backoff.ts): values only, with an injected random source; no timers.
 */
import { computeBackoffMs, DEFAULT_BACKOFF_INITIAL_MS, DEFAULT_BACKOFF_MAX_MS } from './backoff';

const highest = (): number => 0.999999;
const lowest = (): number => 0;

describe('computeBackoffMs', () => {
  it('doubles the ceiling from 100 ms up to 5 s', () => {
    const ceilings = Array.from({ length: 9 }, (_, attempt) => computeBackoffMs(attempt, {}, highest));
    expect(ceilings).toEqual([100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000]);
  });

  it('draws the delay from the upper half of the ceiling (equal jitter)', () => {
    expect(computeBackoffMs(0, {}, lowest)).toBe(50);
    expect(computeBackoffMs(3, {}, lowest)).toBe(400);
    expect(computeBackoffMs(3, {}, () => 0.5)).toBe(600);
    expect(computeBackoffMs(20, {}, lowest)).toBe(2500);
  });

  it('stays within [ceiling/2, ceiling] for any random value, and finite for huge attempts', () => {
    for (const attempt of [0, 1, 5, 6, 50, 5000]) {
      for (const r of [0, 0.1, 0.5, 0.9, 0.999999, 1, -1, 2]) {
        const delay = computeBackoffMs(attempt, {}, () => r);
        const ceiling = Math.min(DEFAULT_BACKOFF_MAX_MS, DEFAULT_BACKOFF_INITIAL_MS * 2 ** Math.min(attempt, 60));
        expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
        expect(delay).toBeLessThanOrEqual(ceiling);
        expect(Number.isInteger(delay)).toBe(true);
      }
    }
  });

  it('honours custom bounds', () => {
    expect(computeBackoffMs(0, { initialMs: 10, maxMs: 40 }, highest)).toBe(10);
    expect(computeBackoffMs(5, { initialMs: 10, maxMs: 40 }, highest)).toBe(40);
  });

  it('rejects invalid attempts and bounds', () => {
    expect(() => computeBackoffMs(-1)).toThrow(RangeError);
    expect(() => computeBackoffMs(1.5)).toThrow(RangeError);
    expect(() => computeBackoffMs(0, { initialMs: 0 })).toThrow(RangeError);
    expect(() => computeBackoffMs(0, { initialMs: 100, maxMs: 50 })).toThrow(RangeError);
    expect(() => computeBackoffMs(0, { maxMs: Number.POSITIVE_INFINITY })).toThrow(RangeError);
  });
});
