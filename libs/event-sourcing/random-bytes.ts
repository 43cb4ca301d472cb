import { randomFillSync } from 'node:crypto';

/** Refilled 4 KiB at a time: one CSPRNG call per ~340 IVs rather than one each (a call costs microseconds on the write path). */
const pool = Buffer.alloc(4096);
let next = pool.length;

/**
 * `n` (≤ 4096, else RangeError) fresh CSPRNG bytes as a view of a pooled buffer: use or copy it at once, before another call reuses
 * the memory. For IVs, new keys and resource ids.
 */
export function randomView(n: number): Buffer {
  if (n > pool.length) throw new RangeError(`at most ${pool.length} bytes at a time`);
  if (next + n > pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  const view = pool.subarray(next, next + n);
  next += n;
  return view;
}
