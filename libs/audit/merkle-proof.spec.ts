import { generateKeyPairSync } from 'node:crypto';
import { logPosition } from '@app/event-sourcing';
import { leafHash, signDigest, type HashedHead } from './digest';
import { digestTree, proofOf } from './digest-tree';
import { inclusionPath, rootFromPath, subtreesOfPath } from './merkle-proof';

const headsOf = (n: number): HashedHead[] =>
  Array.from({ length: n }, (_, i) => ({ streamId: `s-${String(i).padStart(3, '0')}`, revision: i % 5, hash: String(i % 10).repeat(64) }));

/** The subtree lookup over a tree's kept nodes. */
function lookupOf(heads: HashedHead[]) {
  const tree = digestTree(heads);
  const nodes = new Map(tree.nodes.map((n) => [`${n.level}/${n.index}`, n.hash]));
  return { tree, node: (level: number, index: number) => nodes.get(`${level}/${index}`)! };
}

describe('inclusion proofs in the digest tree (RFC 9162 §2.1.3)', () => {
  it('take every leaf to the root, for every tree size from 1 to 40', () => {
    for (let size = 1; size <= 40; size++) {
      const heads = headsOf(size);
      const { tree, node } = lookupOf(heads);
      for (let i = 0; i < size; i++) {
        const path = inclusionPath(i, size, node);
        expect(rootFromPath(i, size, leafHash(heads[i]), path)?.toString('hex')).toBe(tree.root);
      }
    }
  });

  it('look up only complete subtrees the tree kept, O(log² n) of them', () => {
    const { tree } = lookupOf(headsOf(37));
    const kept = new Set(tree.nodes.map((n) => `${n.level}/${n.index}`));
    expect(tree.nodes.length).toBeLessThan(2 * 37);
    for (let i = 0; i < 37; i++) {
      const wanted = subtreesOfPath(i, 37);
      for (const [level, index] of wanted) expect(kept.has(`${level}/${index}`)).toBe(true);
      expect(wanted.length).toBeLessThanOrEqual(6 * 6);
    }
  });

  it('fail for another leaf, another index, a tree of another shape, a changed or shortened path', () => {
    const heads = headsOf(13);
    const { tree, node } = lookupOf(heads);
    const path = inclusionPath(6, 13, node);
    const root = (index: number, size: number, leaf: Buffer, p: Buffer[]) => rootFromPath(index, size, leaf, p)?.toString('hex') ?? null;
    expect(root(6, 13, leafHash(heads[6]), path)).toBe(tree.root);
    expect(root(6, 13, leafHash({ ...heads[6], revision: 99 }), path)).not.toBe(tree.root);
    expect(root(7, 13, leafHash(heads[6]), path)).not.toBe(tree.root);
    // The size is signed with the root; a path read as of a tree of another shape does not make it.
    expect(root(6, 7, leafHash(heads[6]), path)).not.toBe(tree.root);
    const changed = path.map((h, i) => (i === 1 ? Buffer.from(h).fill(7, 0, 1) : h));
    expect(root(6, 13, leafHash(heads[6]), changed)).not.toBe(tree.root);
    expect(root(6, 13, leafHash(heads[6]), path.slice(0, -1))).toBeNull();
    expect(root(13, 13, leafHash(heads[6]), path)).toBeNull();
  });

  it('refuse a leaf outside the tree', () => {
    const { node } = lookupOf(headsOf(4));
    expect(() => inclusionPath(4, 4, node)).toThrow(RangeError);
    expect(() => inclusionPath(-1, 4, node)).toThrow(RangeError);
  });

  it('prove a head of a signed digest with its fields, in hex', () => {
    const heads = headsOf(9);
    const { tree, node } = lookupOf(heads);
    const { privateKey } = generateKeyPairSync('ed25519');
    const digest = signDigest({ position: logPosition(90), time: '2026-01-01T00:00:00.000Z', streams: 9, root: tree.root }, privateKey);
    const proof = proofOf(digest, { ...heads[4], index: 4 }, node);
    expect(proof).toMatchObject({ stream_id: 's-004', revision: 4, hash: '4'.repeat(64), leaf_index: 4, tree_size: 9 });
    const path = proof.audit_path.map((h) => Buffer.from(h, 'hex'));
    expect(rootFromPath(4, 9, leafHash(heads[4]), path)?.toString('hex')).toBe(digest.root);
  });
});
