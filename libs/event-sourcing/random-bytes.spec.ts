import { randomView } from './random-bytes';

describe('randomView: pooled CSPRNG bytes', () => {
  it('hands out each byte once: views of consecutive calls never share memory, across refills', () => {
    const seen: { buffer: ArrayBufferLike; start: number; end: number; filled: Buffer }[] = [];
    for (let i = 0; i < 1000; i++) {
      const v = randomView(12);
      expect(v).toHaveLength(12);
      // Until the pool refills, no two views overlap; a refill starts again at its first byte with new bytes.
      const last = seen[seen.length - 1];
      if (last && last.buffer === v.buffer && v.byteOffset > last.start) expect(v.byteOffset).toBeGreaterThanOrEqual(last.end);
      seen.push({ buffer: v.buffer, start: v.byteOffset, end: v.byteOffset + v.length, filled: Buffer.from(v) });
    }
    // 12,000 random bytes: the copies are not all the same (a pool never filled would be zeros).
    expect(new Set(seen.map((s) => s.filled.toString('hex'))).size).toBe(1000);
  });

  it('refuses more than the pool at once', () => {
    expect(() => randomView(4097)).toThrow(RangeError);
  });
});
