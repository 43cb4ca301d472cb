import { randomFillSync } from 'node:crypto';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Random bytes drawn 4 KiB at a time (one call into the CSPRNG per ~70 ids rather than per id). */
const pool = Buffer.alloc(4096);
let next = pool.length;

function randomByte(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++];
}

/**
 * A new resource id: `length` (24) random base58 characters, as the reference's ids
 * (docs/reference/API-FACTS.md §1.10). Rejection sampling over random bytes (bytes ≥ 232 are
 * skipped) keeps every character equally likely. Ids name resources; they are not secrets.
 */
export function newResourceId(length = 24): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 232) out += BASE58[byte % 58];
  }
  return out;
}
