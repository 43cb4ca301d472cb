import { nodeHash } from './digest';

/** Inclusion proofs in a digest's Merkle tree (RFC 9162 §2.1.3); `examples/verify-history.mjs` checks a path by the same rule. */

/** Covers leaves `index·2^level` up to `(index+1)·2^level`. */
export type SubtreeLookup = (level: number, index: number) => Buffer;

/** n ≥ 2. */
function splitOf(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** Leaves `start` up to `end` (excluded), from the complete subtrees it is made of. */
function rangeHash(start: number, end: number, node: SubtreeLookup): Buffer {
  const n = end - start;
  if ((n & (n - 1)) === 0 && start % n === 0) return node(Math.log2(n), start / n);
  const k = splitOf(n);
  return nodeHash(rangeHash(start, start + k, node), rangeHash(start + k, end, node));
}

/** RFC 9162 §2.1.3.1 `PATH(m, D[n])`, leaf upward, from the subtrees {@link subtreesOfPath} names. RangeError for `index` ≥ `size`. */
export function inclusionPath(index: number, size: number, node: SubtreeLookup): Buffer[] {
  if (!(Number.isInteger(index) && index >= 0 && index < size)) throw new RangeError(`leaf ${index} is not in a tree of ${size}`);
  const siblings: Buffer[] = [];
  let start = 0;
  let end = size;
  while (end - start > 1) {
    const k = splitOf(end - start);
    if (index < start + k) {
      siblings.push(rangeHash(start + k, end, node));
      end = start + k;
    } else {
      siblings.push(rangeHash(start, start + k, node));
      start += k;
    }
  }
  return siblings.reverse();
}

/** `[level, index]` pairs, O(log² size), for a store to fetch in one query. */
export function subtreesOfPath(index: number, size: number): [number, number][] {
  const wanted: [number, number][] = [];
  inclusionPath(index, size, (level, i) => {
    wanted.push([level, i]);
    return Buffer.alloc(32);
  });
  return wanted;
}

/** RFC 9162 §2.1.3.2; null when the path cannot belong to such a tree (wrong length). */
export function rootFromPath(index: number, size: number, leaf: Buffer, path: readonly Buffer[]): Buffer | null {
  if (!(index >= 0 && index < size)) return null;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else r = nodeHash(r, p);
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : null;
}
