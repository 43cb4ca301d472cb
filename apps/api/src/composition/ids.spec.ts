import { newResourceId } from './ids';

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

describe('newResourceId', () => {
  it('is 24 base58 characters by default, and as long as asked', () => {
    expect(newResourceId()).toMatch(BASE58);
    expect(newResourceId()).toHaveLength(24);
    expect(newResourceId(7)).toHaveLength(7);
  });

  it('gives different ids across many refills of its random pool', () => {
    const ids = new Set(Array.from({ length: 20_000 }, () => newResourceId()));
    expect(ids.size).toBe(20_000);
  });

  it('draws every character about equally often (no modulo bias toward the first 24)', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 20_000; i++) for (const c of newResourceId()) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(58);
    const values = [...counts.values()];
    // Unbiased: each count ~8,276 ± 1 %; `byte % 58` without rejection would make 24 of them 25 % more.
    expect(Math.max(...values) / Math.min(...values)).toBeLessThan(1.1);
  });
});
