import { nodeHash } from './digest';

/**
 * Inclusion proofs in the Merkle tree of a signed digest (RFC 9162 §2.1.3, the tree of RFC 6962
 * §2.1; docs/DESIGN.md "Signed digests"): the audit path that takes one stream head's leaf to the
 * digest's root, and the check of such a path. `examples/verify-history.mjs` checks a path by the
 * same rule with no import from this project.
 */

/** The hash of the complete subtree at `level` and `index` (leaves `index·2^level` up to `(index+1)·2^level`), as kept. */
export type SubtreeLookup = (level: number, index: number) => Buffer;

/** The largest power of two below `n` (n ≥ 2). */
function splitOf(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** The tree hash over leaves `start` up to `end` (not included), from the complete subtrees it is made of. */
function rangeHash(start: number, end: number, node: SubtreeLookup): Buffer {
  const n = end - start;
  if ((n & (n - 1)) === 0 && start % n === 0) return node(Math.log2(n), start / n);
  const k = splitOf(n);
  return nodeHash(rangeHash(start, start + k, node), rangeHash(start + k, end, node));
}

/**
 * The audit path of leaf `index` in a tree of `size` leaves (RFC 9162 §2.1.3.1, `PATH(m, D[n])`):
 * the sibling hashes from the leaf's level up to the root's. `node` looks up the complete
 * subtrees that `MerkleRoot` reported as it made the tree ({@link subtreesOfPath} says which).
 * Throws a RangeError when `index` is not below `size`.
 */
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
  // Found from the root down; the path runs from the leaf up.
  return siblings.reverse();
}

/**
 * The complete subtrees (`[level, index]`) that {@link inclusionPath} of leaf `index` in a tree of
 * `size` leaves looks up: O(log² size) at most, for a store to fetch in one query.
 */
export function subtreesOfPath(index: number, size: number): [number, number][] {
  const wanted: [number, number][] = [];
  inclusionPath(index, size, (level, i) => {
    wanted.push([level, i]);
    return Buffer.alloc(32);
  });
  return wanted;
}

/**
 * The root that the audit path `path` makes from leaf hash `leaf` at `index` in a tree of `size`
 * leaves (RFC 9162 §2.1.3.2); null when the path cannot belong to such a tree (wrong length).
 */
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
