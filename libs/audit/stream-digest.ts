import { logPosition, storedTextOf, type StoredLog, type ReadStreamOptions, type StoredEventText } from '@app/event-sourcing';
import { digestSignatureHolds, keyFingerprint, type SignedDigest, type HashedHead, type TrustedKey } from './digest';
import { AUDIT_DIGEST_SIGNED, AUDIT_DIGEST_STREAM } from './digest-events';
import { checkStreamChain } from './chain-check';

/**
 * One stream's evidence for an auditor's report (docs/operations.md "Trainee history"): the
 * stream as stored, and what the latest signed digest recorded in the log says of it
 * (docs/DESIGN.md "Signed digests").
 */

/**
 * One stream's events as stored, in revision order (what `checkStreamChain` hashes; `[]` for no
 * such stream), all of them or the `range` of revisions `readStream` takes. `store` is the log as
 * stored (sealed values sealed, as the chain hashed them). A store with `readStoredStream`
 * gives the stored texts; any other is read through `readStream`, the data and metadata as
 * `JSON.stringify` writes them, as `verifyLog` does.
 */
export async function readStoredStream(store: StoredLog, streamId: string, range?: ReadStreamOptions): Promise<StoredEventText[]> {
  return store.readStoredStream ? store.readStoredStream(streamId, range) : (await store.readStream(streamId, range)).map(storedTextOf);
}

/** A signed digest as recorded in the log: the digest, who signed it, and the position of the event that records it. */
export interface RecordedDigest {
  digest: SignedDigest;
  by: string | null;
  recordedAt: number;
}

/** The latest digest recorded in the `audit-digests` stream (an `AuditDigestSigned` event); null when none was ever signed. */
export async function latestRecordedDigest(store: StoredLog): Promise<RecordedDigest | null> {
  const events = await store.readStream(AUDIT_DIGEST_STREAM);
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.type !== AUDIT_DIGEST_SIGNED) continue;
    const { by, ...digest } = e.data as SignedDigest & { by?: unknown };
    // The position the store gave when the digest was signed, read back from the event's data.
    return {
      digest: { ...digest, position: logPosition(digest.position) },
      by: typeof by === 'string' ? by : null,
      recordedAt: e.position,
    };
  }
  return null;
}

/**
 * What a report says of the digest a stream was checked against (docs/DESIGN.md "Signed
 * digests"): the digest's `position` (the log's head it covers), `signedAt` (ISO 8601, UTC),
 * `signedBy`, the Merkle `root` (hex) over `streams` heads, the signer's `keyFingerprint`
 * (`keyFingerprint`), whether the signature holds for that key, `trustedKey`, the key the report
 * holds digests to (null: none is configured; docs/DESIGN.md "Who holds what"), and the stream's `head` as of the
 * position (null: the stream had no event then, so the digest covers none of it) with
 * `laterEvents`, the events stored after the position (the next digest's to cover). `included`:
 * whether an inclusion proof shows that head under the signed root; null when no proof was checked.
 */
export interface DigestSection {
  position: number;
  signedAt: string;
  signedBy: string | null;
  root: string;
  streams: number;
  keyFingerprint: string;
  signatureHolds: boolean;
  trustedKey: TrustedKey | null;
  head: HashedHead | null;
  laterEvents: number;
  included: boolean | null;
}

/**
 * The {@link DigestSection} of `stream` (its events as stored, in revision order, with positions)
 * against `recorded` (null: no digest was ever signed, and so none). `proveInclusion`, when given,
 * is asked whether the stream's head at the digest's position is under the signed root (null: it
 * cannot tell, having no proof of this digest); without it `included` is null. `trustedKey`: the
 * key the report holds the digest to (null: none). Pure except for the signature check (Ed25519,
 * `node:crypto`).
 */
export function digestSection(
  recorded: RecordedDigest | null,
  stream: readonly StoredEventText[],
  proveInclusion?: (head: HashedHead, digest: SignedDigest) => boolean | null,
  trustedKey: TrustedKey | null = null,
): DigestSection | null {
  if (recorded === null) return null;
  const position = recorded.digest.position;
  const inside = stream.filter((e) => e.position !== undefined && e.position <= position);
  const last = inside[inside.length - 1];
  const headHash = last === undefined ? null : checkStreamChain(inside).headHash;
  const head = last === undefined || headHash === null ? null : { streamId: last.streamId, revision: last.revision, hash: headHash };
  return digestSectionOf(recorded, { head, laterEvents: stream.length - inside.length }, proveInclusion, trustedKey);
}

/** What a digest covers of one stream: the stream's head at the digest's position (null: none of it), and the events stored after it. */
export interface StreamCoverage {
  head: HashedHead | null;
  laterEvents: number;
}

/**
 * The {@link DigestSection} against `recorded` of a stream whose {@link StreamCoverage} was found by
 * its reader (`verifyStoredStream` finds it in a chunked pass); `proveInclusion` and `trustedKey` as
 * for {@link digestSection}. What {@link digestSection} gives once it has found the coverage.
 */
export function digestSectionOf(
  recorded: RecordedDigest,
  coverage: StreamCoverage,
  proveInclusion?: (head: HashedHead, digest: SignedDigest) => boolean | null,
  trustedKey: TrustedKey | null = null,
): DigestSection {
  const { digest } = recorded;
  const { head, laterEvents } = coverage;
  return {
    position: digest.position,
    signedAt: digest.time,
    signedBy: recorded.by,
    root: digest.root,
    streams: digest.streams,
    keyFingerprint: keyFingerprint(digest.public_key),
    signatureHolds: digestSignatureHolds(digest),
    trustedKey,
    head,
    laterEvents,
    included: head !== null && proveInclusion ? proveInclusion(head, digest) : null,
  };
}
