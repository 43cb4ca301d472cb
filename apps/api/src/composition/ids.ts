import { randomView } from '@app/event-sourcing';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/**
 * A new resource id: `length` (24) random base58 characters, as the reference's ids
 * (docs/reference/API-FACTS.md §1.10). Rejection sampling over random bytes (bytes ≥ 232 are
 * skipped) keeps every character equally likely. Ids name resources; they are not secrets.
 */
export function newResourceId(length = 24): string {
  let out = '';
  while (out.length < length) {
    // About 10 % of bytes are skipped: a few more than needed, drawn at once from the shared pool.
    for (const byte of randomView(length - out.length + 4)) {
      if (byte < 232) out += BASE58[byte % 58];
      if (out.length === length) break;
    }
  }
  return out;
}
