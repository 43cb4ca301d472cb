import { randomFillSync } from 'node:crypto';

/**
 * Random bytes drawn from `node:crypto`'s CSPRNG 4 KiB at a time: one call into it per ~340 IVs or
 * ~150 resource ids rather than one each (a call costs microseconds on the write path).
 */
const pool = Buffer.alloc(4096);
let next = pool.length;

/**
 * `n` (at most 4096) fresh random bytes from `node:crypto`'s CSPRNG, each byte handed out once, as
 * a view of a pooled buffer: the caller uses it at once (to start a cipher, to read its bytes, or
 * copies it), before another call can reuse the pool's memory. For IVs and new keys
 * (docs/DESIGN.md "Personal data") and resource ids. RangeError for more than 4096.
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
