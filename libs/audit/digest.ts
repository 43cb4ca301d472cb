import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import type { LogPosition } from '@app/event-sourcing';

/**
 * Signed digests of the log (docs/DESIGN.md "Verifiable history", "Signed digests"): the
 * Merkle root over every stream's head as of a position, the position and the time, signed with
 * Ed25519 (`node:crypto`). A digest the auditor keeps proves what the log held when it was signed:
 * events taken from a stream's end, or added with hashes computed afresh, no longer match it.
 */

/** What the signature covers, before the fields: names the format, so a signature cannot be taken for another kind of message. */
export const DIGEST_FORMAT = 'trainee-records-audit-digest/1';

/** One stream's head as a digest holds it: the stream, the revision of its last event, that event's hash. */
export interface HashedHead {
  streamId: string;
  revision: number;
  hash: string;
}

/**
 * A signed digest (the JSON an auditor keeps, snake_case as the API answers): `position`, the
 * log's head position it covers (every event at or below it); `time`, when it was signed (ISO
 * 8601, UTC); `streams`, how many stream heads the root covers; `root`, the Merkle root (hex) over
 * those heads in stream-id order; `public_key`, the Ed25519 public key as a JWK; `signature`,
 * base64 of the Ed25519 signature of {@link digestMessage}.
 */
export interface SignedDigest {
  format: typeof DIGEST_FORMAT;
  position: LogPosition;
  time: string;
  streams: number;
  root: string;
  public_key: { kty: 'OKP'; crv: 'Ed25519'; x: string };
  signature: string;
}

/**
 * The hash of one head as a leaf of the tree: SHA-256 of a zero byte (RFC 6962's leaf prefix) then
 * `JSON.stringify([streamId, revision, hash])`.
 */
export function leafHash(head: HashedHead): Buffer {
  return createHash('sha256')
    .update(Buffer.of(0))
    .update(JSON.stringify([head.streamId, head.revision, head.hash]))
    .digest();
}

/** The hash of an inner node (RFC 6962 §2.1): SHA-256 of a one byte, then the left and right children's hashes. */
export function nodeHash(left: Buffer, right: Buffer): Buffer {
  return createHash('sha256').update(Buffer.of(1)).update(left).update(right).digest();
}

/**
 * The Merkle tree hash of RFC 6962 (§2.1) over leaves added one by one, in memory logarithmic in
 * their number: a stack of the roots of complete subtrees. The root of no leaf is SHA-256 of nothing.
 */
export class MerkleRoot {
  private readonly stack: { hash: Buffer; size: number; level: number }[] = [];
  private count = 0;

  /**
   * `onNode` (optional) is told of every complete subtree as it is made: its `level` (0 for a
   * leaf), its `index` among the subtrees of that level (it covers leaves `index·2^level` up to
   * `(index+1)·2^level`) and its hash; what an inclusion proof is made from ({@link inclusionPath}).
   */
  constructor(private readonly onNode?: (level: number, index: number, hash: Buffer) => void) {}

  /** Adds the next leaf (its hash, {@link leafHash}). */
  add(leaf: Buffer): void {
    let node = { hash: leaf, size: 1, level: 0 };
    this.onNode?.(0, this.count, leaf);
    while (this.stack.length > 0 && this.stack[this.stack.length - 1].size === node.size) {
      const left = this.stack.pop()!;
      node = { hash: nodeHash(left.hash, node.hash), size: left.size * 2, level: node.level + 1 };
      this.onNode?.(node.level, (this.count + 1 - node.size) / node.size, node.hash);
    }
    this.stack.push(node);
    this.count++;
  }

  /** The number of leaves added. */
  get size(): number {
    return this.count;
  }

  /** The root over the leaves added so far, as lower-case hex. */
  root(): string {
    if (this.stack.length === 0) return createHash('sha256').digest('hex');
    let acc = this.stack[this.stack.length - 1].hash;
    for (let i = this.stack.length - 2; i >= 0; i--) acc = nodeHash(this.stack[i].hash, acc);
    return acc.toString('hex');
  }
}

/** The message a digest's signature covers: `JSON.stringify([format, position, time, streams, root])`, UTF-8. */
export function digestMessage(d: Pick<SignedDigest, 'format' | 'position' | 'time' | 'streams' | 'root'>): Buffer {
  return Buffer.from(JSON.stringify([d.format, d.position, d.time, d.streams, d.root]));
}

/** A digest of `fields` signed with `privateKey` (Ed25519). */
export function signDigest(fields: Pick<SignedDigest, 'position' | 'time' | 'streams' | 'root'>, privateKey: KeyObject): SignedDigest {
  const unsigned = { format: DIGEST_FORMAT, ...fields } as const;
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  return {
    ...unsigned,
    public_key: { kty: 'OKP', crv: 'Ed25519', x: String(jwk.x) },
    signature: sign(null, digestMessage(unsigned), privateKey).toString('base64'),
  };
}

/**
 * True when `digest`'s signature holds for its own public key and fields. Whether that key is
 * one to trust is the caller's question ({@link keyFingerprint}).
 */
export function digestSignatureHolds(digest: SignedDigest): boolean {
  try {
    const key = createPublicKey({ key: { ...digest.public_key }, format: 'jwk' });
    return verify(null, digestMessage(digest), key, Buffer.from(digest.signature, 'base64'));
  } catch {
    return false;
  }
}

/** A public key's fingerprint: SHA-256 of its raw 32 bytes, hex, as an auditor compares keys. */
export function keyFingerprint(publicKey: SignedDigest['public_key'] | KeyObject): string {
  const x = 'x' in publicKey ? publicKey.x : String(publicKey.export({ format: 'jwk' }).x);
  return createHash('sha256').update(Buffer.from(x, 'base64url')).digest('hex');
}

/**
 * The key an auditor holds digests to (docs/DESIGN.md "Who holds what"): its `fingerprint`
 * (`keyFingerprint`: SHA-256 of the Ed25519 public key's 32 bytes, hex) and `name`, where it comes
 * from, as a report names it ("this deployment's audit signing key", "the key given with --fingerprint").
 */
export interface TrustedKey {
  fingerprint: string;
  name: string;
}
