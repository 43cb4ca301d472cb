import { type StoredLog, type StoredEventText } from '@app/event-sourcing';
import type { SignedDigest, HashedHead, TrustedKey } from './digest';
import {
  digestSection,
  digestSectionOf,
  readStoredStream,
  type DigestSection,
  type RecordedDigest,
  type StreamCoverage,
} from './stream-digest';
import { checkStreamChain, IntactChain, type StreamChainReport } from './chain-check';

/**
 * One stream's verification for an auditor's report (docs/operations.md "Trainee history"), read
 * a chunk at a time: the chain's check and what the latest signed digest says of the stream, with
 * memory bounded by a chunk whatever the stream's length, unless the chain does not hold.
 */

/** Events read at a time by {@link verifyStoredStream} (default). */
export const VERIFY_CHUNK = 1000;

/** What {@link verifyStoredStream} found of one stream. */
export interface StreamVerification {
  /** `checkStreamChain` of the stream as stored, and how many events it checked. */
  chain: StreamChainReport & { events: number };
  /** `digestSection` of the stream against the recorded digest; null when none is recorded. */
  digest: DigestSection | null;
  /** The global position of the stream's first event; undefined for an empty stream. */
  firstPosition: number | undefined;
}

/**
 * One stream's events as stored, in revision order, in chunks of at most `chunkSize` (an integer
 * ≥ 1) events, each read when the one before has been consumed; nothing for no such stream.
 * `store` is the log as stored, read as {@link readStoredStream} reads it.
 */
export async function* storedStreamChunks(store: StoredLog, streamId: string, chunkSize: number): AsyncGenerator<StoredEventText[]> {
  for (let fromRevision = 0; ;) {
    const chunk = await readStoredStream(store, streamId, { fromRevision, maxCount: chunkSize });
    if (chunk.length > 0) yield chunk;
    if (chunk.length < chunkSize) return;
    fromRevision = chunk[chunk.length - 1].revision + 1;
  }
}

/**
 * The {@link StreamVerification} of `streamId` (`store` the log as stored, as for
 * {@link storedStreamChunks}) against `recorded` (the latest recorded digest, null for none), the
 * same as `checkStreamChain` and `digestSection` of the whole stream as stored give, with
 * `proveInclusion` and `trustedKey` as `digestSection` takes them.
 *
 * Read in chunks of `chunkSize` events (default {@link VERIFY_CHUNK}) in one pass that keeps O(1)
 * state ({@link IntactChain}; the digest's coverage: the stream's head at the digest's position and
 * the count of events after it). When the chain does not hold, or the events at or before the
 * digest's position are not the stream's first ones (positions are not hashed), the stream is read
 * again whole (`readStoredStream`) for `checkStreamChain` to classify every fault: a tampered
 * stream is rare, and the auditor needs each fault named (docs/DESIGN.md "Verifiable history").
 */
export async function verifyStoredStream(
  store: StoredLog,
  streamId: string,
  recorded: RecordedDigest | null,
  options: {
    proveInclusion?: (head: HashedHead, digest: SignedDigest) => boolean | null;
    chunkSize?: number;
    trustedKey?: TrustedKey | null;
  } = {},
): Promise<StreamVerification> {
  const pass = await chunkedPass(store, streamId, recorded?.digest.position ?? null, options.chunkSize ?? VERIFY_CHUNK);
  if (pass === null) {
    const stored = await readStoredStream(store, streamId);
    return {
      chain: { ...checkStreamChain(stored), events: stored.length },
      digest: digestSection(recorded, stored, options.proveInclusion, options.trustedKey ?? null),
      firstPosition: stored[0]?.position,
    };
  }
  return {
    chain: { faults: [], headHash: pass.headHash, events: pass.events },
    digest: recorded === null ? null : digestSectionOf(recorded, pass.coverage, options.proveInclusion, options.trustedKey ?? null),
    firstPosition: pass.firstPosition,
  };
}

/** One chunked pass over an intact stream; null when the chain does not hold or the digest's part is not a prefix. */
async function chunkedPass(
  store: StoredLog,
  streamId: string,
  digestPosition: number | null,
  chunkSize: number,
): Promise<{ headHash: string | null; events: number; coverage: StreamCoverage; firstPosition: number | undefined } | null> {
  const chain = new IntactChain();
  const coverage: StreamCoverage = { head: null, laterEvents: 0 };
  let firstPosition: number | undefined;
  for await (const chunk of storedStreamChunks(store, streamId, chunkSize)) {
    for (const e of chunk) {
      if (!chain.add(e)) return null;
      if (chain.events === 1) firstPosition = e.position;
      if (digestPosition === null) continue;
      if (e.position === undefined || e.position > digestPosition) coverage.laterEvents++;
      else if (coverage.laterEvents > 0) return null;
      else coverage.head = { streamId: e.streamId, revision: e.revision, hash: chain.headHash! };
    }
  }
  return { headHash: chain.headHash, events: chain.events, coverage, firstPosition };
}
