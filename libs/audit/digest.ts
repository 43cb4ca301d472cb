import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import type { LogPosition } from '@app/event-sourcing';

/** Signed digests of the log (docs/DESIGN.md "Signed digests"): the RFC 6962 Merkle root over every stream's head, signed with Ed25519. */

/** First in the signed message, so a signature cannot be taken for another kind of message. */
export const DIGEST_FORMAT = 'trainee-records-audit-digest/1';

export interface HashedHead {
  streamId: string;
  revision: number;
  hash: string;
}

/**
 * The JSON an auditor keeps (snake_case, as the API answers): `position` covered (every event at or below it), `time` ISO 8601 UTC,
 * `root` hex over the heads in stream-id order, `public_key` a JWK, `signature` base64 of {@link digestMessage}'s.
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

/** SHA-256 of a zero byte (RFC 6962's leaf prefix), then `JSON.stringify([streamId, revision, hash])`. */
export function leafHash(head: HashedHead): Buffer {
  return createHash('sha256')
    .update(Buffer.of(0))
    .update(JSON.stringify([head.streamId, head.revision, head.hash]))
    .digest();
}

/** RFC 6962 §2.1: SHA-256 of a one byte, then the children's hashes. */
export function nodeHash(left: Buffer, right: Buffer): Buffer {
  return createHash('sha256').update(Buffer.of(1)).update(left).update(right).digest();
}

/** RFC 6962 §2.1's tree hash over leaves added one by one, in memory logarithmic in their number. No leaf: SHA-256 of nothing. */
export class MerkleRoot {
  private readonly stack: { hash: Buffer; size: number; level: number }[] = [];
  private count = 0;

  /** `onNode` is told each complete subtree as made (`index` among its `level`'s; leaves are level 0): what {@link inclusionPath} reads. */
  constructor(private readonly onNode?: (level: number, index: number, hash: Buffer) => void) {}

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

  get size(): number {
    return this.count;
  }

  /** Lower-case hex. */
  root(): string {
    if (this.stack.length === 0) return createHash('sha256').digest('hex');
    let acc = this.stack[this.stack.length - 1].hash;
    for (let i = this.stack.length - 2; i >= 0; i--) acc = nodeHash(this.stack[i].hash, acc);
    return acc.toString('hex');
  }
}

/** `JSON.stringify([format, position, time, streams, root])`, UTF-8. */
export function digestMessage(d: Pick<SignedDigest, 'format' | 'position' | 'time' | 'streams' | 'root'>): Buffer {
  return Buffer.from(JSON.stringify([d.format, d.position, d.time, d.streams, d.root]));
}

export function signDigest(fields: Pick<SignedDigest, 'position' | 'time' | 'streams' | 'root'>, privateKey: KeyObject): SignedDigest {
  const unsigned = { format: DIGEST_FORMAT, ...fields } as const;
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  return {
    ...unsigned,
    public_key: { kty: 'OKP', crv: 'Ed25519', x: String(jwk.x) },
    signature: sign(null, digestMessage(unsigned), privateKey).toString('base64'),
  };
}

/** Whether the signature holds for its own key; whether to trust that key is the caller's question ({@link keyFingerprint}). */
export function digestSignatureHolds(digest: SignedDigest): boolean {
  try {
    const key = createPublicKey({ key: { ...digest.public_key }, format: 'jwk' });
    return verify(null, digestMessage(digest), key, Buffer.from(digest.signature, 'base64'));
  } catch {
    return false;
  }
}

/** SHA-256 of the raw 32 bytes, hex, as an auditor compares keys. */
export function keyFingerprint(publicKey: SignedDigest['public_key'] | KeyObject): string {
  const x = 'x' in publicKey ? publicKey.x : String(publicKey.export({ format: 'jwk' }).x);
  return createHash('sha256').update(Buffer.from(x, 'base64url')).digest('hex');
}

/** The key an auditor holds digests to (docs/DESIGN.md "Who holds what"); `name` says where it comes from, as a report names it. */
export interface TrustedKey {
  fingerprint: string;
  name: string;
}
