import { readFileSync } from 'node:fs';
import { logPosition } from '@app/event-sourcing';
import { AuditRefused } from './audit-log';
import { DIGEST_FORMAT, leafHash, MerkleRoot, type HashedHead, type SignedDigest } from './digest';

/**
 * A digest file as `audit digest --output` writes it (docs/operations.md "Signed digests"): the
 * signed digest and every stream head it covers, which `audit verify --digest` holds the log to.
 */
export interface DigestFile {
  digest: SignedDigest;
  heads: HashedHead[];
}

/**
 * The text of a digest file: `{"digest": …, "heads": [[stream, revision, hash], …]}`, one head a
 * line, in the order given (stream-id order, as the digest's tree).
 */
export function digestFileText(digest: SignedDigest, heads: readonly HashedHead[]): string {
  const lines = heads.map((h) => JSON.stringify([h.streamId, h.revision, h.hash])).join(',\n');
  return `{"digest": ${JSON.stringify(digest)},\n"heads": [\n${lines}\n]}\n`;
}

/**
 * Reads a digest file and checks its shape, and that its heads make its signed root (a file whose
 * heads were changed cannot pass for the digest). {@link AuditRefused} for anything else: a file
 * that cannot be read, is not JSON, is not a digest file, or whose heads were changed.
 */
export function readDigestFile(file: string): DigestFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new AuditRefused(`Cannot read the digest file ${file}: ${(err as Error).message}`);
  }
  const { digest, heads } = (parsed ?? {}) as { digest?: Partial<SignedDigest>; heads?: unknown };
  const isDigest =
    digest?.format === DIGEST_FORMAT &&
    Number.isSafeInteger(digest.position) &&
    typeof digest.time === 'string' &&
    Number.isSafeInteger(digest.streams) &&
    typeof digest.root === 'string' &&
    typeof digest.signature === 'string' &&
    typeof digest.public_key?.x === 'string';
  const isHead = (h: unknown) =>
    Array.isArray(h) && h.length === 3 && typeof h[0] === 'string' && Number.isSafeInteger(h[1]) && typeof h[2] === 'string';
  if (!isDigest || !Array.isArray(heads) || !heads.every(isHead)) {
    throw new AuditRefused(
      `${file} is not a digest file written by audit digest --output ({"digest": …, "heads": [[stream, revision, hash], …]})`,
    );
  }
  const list = (heads as [string, number, string][]).map(([streamId, revision, hash]) => ({ streamId, revision, hash }));
  const merkle = new MerkleRoot();
  for (const h of list) merkle.add(leafHash(h));
  if (merkle.size !== digest.streams || merkle.root() !== digest.root) {
    throw new AuditRefused(`the heads in ${file} do not make the digest's signed root: the file was changed`);
  }
  // The position a store gave when the digest was signed, given back by the auditor's file.
  return { digest: { ...(digest as SignedDigest), position: logPosition(digest.position as number) }, heads: list };
}
