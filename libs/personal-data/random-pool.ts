import { randomFillSync } from 'node:crypto';

/** Random bytes drawn from the CSPRNG 4 KiB at a time: one call into it per ~340 IVs rather than per IV. */
const pool = Buffer.alloc(4096);
let next = pool.length;

/**
 * `n` (at most 4096) fresh random bytes from `node:crypto`'s CSPRNG, each byte handed out once, as
 * a view of a pooled buffer: the caller uses it at once (to start a cipher, or copies it), before
 * another call can reuse the pool's memory. For IVs and new keys (docs/DESIGN.md "Personal data").
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
