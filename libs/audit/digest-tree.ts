import { leafHash, MerkleRoot, type SignedDigest, type HashedHead } from './digest';
import { inclusionPath, rootFromPath, type SubtreeLookup } from './merkle-proof';

/**
 * The latest signed digest's Merkle tree, kept so that the API can prove one stream's head is in
 * it (docs/DESIGN.md "Signed digests", "Inclusion proofs"): every head it covers, with its leaf
 * index, and every complete subtree's hash. Kept outside the projection stores (a rebuild never
 * touches it) and replaced whole at each digest.
 */

/** One complete subtree of the tree: its level (0: a leaf), its index at that level, its hash. */
export interface TreeNode {
  level: number;
  index: number;
  hash: Buffer;
}

/** A digest's tree, ready to keep: the heads in leaf order (stream-id order) and every complete subtree. */
export interface DigestTree {
  heads: HashedHead[];
  nodes: TreeNode[];
  root: string;
}

/** The tree over `heads` (in stream-id order, as `digestLog` folds them): ~2 nodes a head. */
export function digestTree(heads: HashedHead[]): DigestTree {
  const nodes: TreeNode[] = [];
  const merkle = new MerkleRoot((level, index, hash) => nodes.push({ level, index, hash }));
  for (const h of heads) merkle.add(leafHash(h));
  return { heads, nodes, root: merkle.root() };
}

/**
 * The proof that one stream's head is in a digest's tree (snake_case, as the API answers it):
 * the head (`stream_id`, `revision`, `hash`), its `leaf_index` among the digest's `tree_size`
 * leaves, and the `audit_path` (hex hashes, leaf upward; RFC 9162 §2.1.3) that makes the root.
 */
export interface InclusionProof {
  stream_id: string;
  revision: number;
  hash: string;
  leaf_index: number;
  tree_size: number;
  audit_path: string[];
}

/** A kept head and its leaf index. */
export interface KeptHead extends HashedHead {
  index: number;
}

/**
 * The inclusion proof of `head` in the tree of `digest`, from the subtrees `node` looks up (those
 * `subtreesOfPath` names).
 */
export function proofOf(digest: SignedDigest, head: KeptHead, node: SubtreeLookup): InclusionProof {
  return {
    stream_id: head.streamId,
    revision: head.revision,
    hash: head.hash,
    leaf_index: head.index,
    tree_size: digest.streams,
    audit_path: inclusionPath(head.index, digest.streams, node).map((h) => h.toString('hex')),
  };
}

/**
 * Whether `proof` shows that `head` is a leaf of `digest`'s tree: the proof is of that very head
 * (stream, revision, hash) and its audit path makes the digest's signed root from the head's leaf
 * (RFC 9162 §2.1.3.2), in a tree of the digest's size.
 */
export function proofHolds(head: HashedHead, digest: SignedDigest, proof: InclusionProof): boolean {
  if (proof.stream_id !== head.streamId || proof.revision !== head.revision || proof.hash !== head.hash) return false;
  const path = proof.audit_path.map((h) => Buffer.from(h, 'hex'));
  return rootFromPath(proof.leaf_index, digest.streams, leafHash(head), path)?.toString('hex') === digest.root;
}

/** The latest digest and, when asked for a stream the digest covers, the proof of its head. */
export interface DigestWithProof {
  digest: SignedDigest;
  /** Null when the digest holds no head of the stream (it began after the digest's position). */
  inclusion: InclusionProof | null;
}

/** Where the latest digest's tree is kept (SQLite `<DATA_DIR>/audit.sqlite`, or the MongoDB read store's database). */
export interface DigestTreeStore {
  /** Replaces what is kept by `digest` and its tree (`digestTree` of the heads it signed), at once: a reader sees the old or the new. */
  keep(digest: SignedDigest, tree: DigestTree): Promise<void>;
  /** The latest kept digest, and the proof of `streamId`'s head in it when a stream is named; null when none is kept. */
  latest(streamId?: string): Promise<DigestWithProof | null>;
  /** Every head the kept digest covers, in leaf (stream-id) order; none when no digest is kept. For the next digest's increment. */
  heads(): Promise<HashedHead[]>;
  close(): Promise<void>;
}

/** The injection token of the {@link DigestTreeStore}. */
export const DIGEST_TREE_STORE = Symbol('DIGEST_TREE_STORE');
