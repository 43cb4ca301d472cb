import { leafHash, MerkleRoot, type SignedDigest, type HashedHead } from './digest';
import { inclusionPath, rootFromPath, type SubtreeLookup } from './merkle-proof';

/**
 * The latest digest's Merkle tree, kept outside the projection stores so the API can prove a stream's head is in it (docs/DESIGN.md
 * "Inclusion proofs"); replaced whole at each digest.
 */

/** Level 0: a leaf. */
export interface TreeNode {
  level: number;
  index: number;
  hash: Buffer;
}

/** Heads in leaf (stream-id) order, and every complete subtree. */
export interface DigestTree {
  heads: HashedHead[];
  nodes: TreeNode[];
  root: string;
}

/** `heads` in stream-id order; about 2 nodes a head. */
export function digestTree(heads: HashedHead[]): DigestTree {
  const nodes: TreeNode[] = [];
  const merkle = new MerkleRoot((level, index, hash) => nodes.push({ level, index, hash }));
  for (const h of heads) merkle.add(leafHash(h));
  return { heads, nodes, root: merkle.root() };
}

/** Snake_case, as the API answers: `audit_path` hex hashes, leaf upward (RFC 9162 §2.1.3), that make the root. */
export interface InclusionProof {
  stream_id: string;
  revision: number;
  hash: string;
  leaf_index: number;
  tree_size: number;
  audit_path: string[];
}

export interface KeptHead extends HashedHead {
  index: number;
}

/** From the subtrees `subtreesOfPath` names, as `node` looks them up. */
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

/** The proof is of that very head and its path makes the signed root in a tree of the digest's size (RFC 9162 §2.1.3.2). */
export function proofHolds(head: HashedHead, digest: SignedDigest, proof: InclusionProof): boolean {
  if (proof.stream_id !== head.streamId || proof.revision !== head.revision || proof.hash !== head.hash) return false;
  const path = proof.audit_path.map((h) => Buffer.from(h, 'hex'));
  return rootFromPath(proof.leaf_index, digest.streams, leafHash(head), path)?.toString('hex') === digest.root;
}

export interface DigestWithProof {
  digest: SignedDigest;
  /** Null when the stream began after the digest's position. */
  inclusion: InclusionProof | null;
}

/** SQLite `<DATA_DIR>/audit.sqlite`, or the MongoDB read store's database. */
export interface DigestTreeStore {
  /** At once: a reader sees the old or the new. */
  keep(digest: SignedDigest, tree: DigestTree): Promise<void>;
  /** With the proof of `streamId`'s head when named; null when none is kept. */
  latest(streamId?: string): Promise<DigestWithProof | null>;
  /** In leaf (stream-id) order: the next digest's increment starts from them. */
  heads(): Promise<HashedHead[]>;
  close(): Promise<void>;
}

export const DIGEST_TREE_STORE = Symbol('DIGEST_TREE_STORE');
