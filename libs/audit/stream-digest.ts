import {
  logPosition,
  storedTextOf,
  type StoredLog,
  type ReadStreamOptions,
  type StoredEventText,
  checkStreamChain,
  type LogPosition,
} from '@app/event-sourcing';
import { digestSignatureHolds, keyFingerprint, type SignedDigest, type HashedHead, type TrustedKey } from './digest';
import { AUDIT_DIGEST_SIGNED, AUDIT_DIGEST_STREAM } from './digest-events';

/**
 * One stream's events as stored, in revision order, whole or `range`; `[]` for none. Through `readStoredStream` where the store has it,
 * else `readStream` with data and metadata as `JSON.stringify` writes them, as `verifyLog` does.
 */
export async function readStoredStream(store: StoredLog, streamId: string, range?: ReadStreamOptions): Promise<StoredEventText[]> {
  return store.readStoredStream ? store.readStoredStream(streamId, range) : (await store.readStream(streamId, range)).map(storedTextOf);
}

/** `position`: of the event that records it. */
export interface RecordedDigest {
  digest: SignedDigest;
  by: string | null;
  recordedAt: number;
}

/** From `audit-digests`; null when none was ever signed. */
export async function latestRecordedDigest(store: StoredLog): Promise<RecordedDigest | null> {
  const events = await store.readStream(AUDIT_DIGEST_STREAM);
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.type !== AUDIT_DIGEST_SIGNED) continue;
    const { by, ...digest } = e.data as SignedDigest & { by?: unknown };
    // The position the store gave when the digest was signed, read back.
    return {
      digest: { ...digest, position: logPosition(digest.position) },
      by: typeof by === 'string' ? by : null,
      recordedAt: e.position,
    };
  }
  return null;
}

/**
 * A report's digest verdict (docs/DESIGN.md "Signed digests", "Who holds what"): `trustedKey` null when none is configured; `head` at
 * the digest's position (null: none of the stream was covered) and `laterEvents` after it; `included` whether an inclusion proof shows
 * that head under the root (null: not checked).
 */
export interface DigestSection {
  position: LogPosition;
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
 * `stream` as stored with positions, against `recorded` (null: none signed). `proveInclusion` (null: cannot tell); without it `included`
 * is null. Pure but for the Ed25519 signature check.
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

/** `head` null: the digest covers none of the stream. */
export interface StreamCoverage {
  head: HashedHead | null;
  laterEvents: number;
}

/** {@link digestSection} once the reader has found the coverage (`verifyStoredStream` does in a chunked pass). */
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
