import { randomBytes } from 'node:crypto';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/**
 * A new resource id: 24 random base58 characters, as the reference's ids (docs/reference/API-FACTS.md §1.10).
 * Uses rejection sampling over random bytes so every character is equally likely.
 */
export function newResourceId(length = 24): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 232) out += BASE58[byte % 58];
      if (out.length === length) break;
    }
  }
  return out;
}
