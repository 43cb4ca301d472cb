import {
  type StoredLog,
  type StoredEventText,
  checkStreamChain,
  IntactChain,
  type StreamChainReport,
  type LogPosition,
} from '@app/event-sourcing';
import type { SignedDigest, HashedHead, TrustedKey } from './digest';
import {
  digestSection,
  digestSectionOf,
  readStoredStream,
  type DigestSection,
  type RecordedDigest,
  type StreamCoverage,
} from './stream-digest';

export const VERIFY_CHUNK = 1000;

/** What {@link verifyStoredStream} found of one stream. */
export interface StreamVerification {
  chain: StreamChainReport & { events: number };
  /** Null when none is recorded. */
  digest: DigestSection | null;
  /** Undefined for an empty stream. */
  firstPosition: LogPosition | undefined;
}

/** Chunks of at most `chunkSize` (≥ 1), each read when the one before has been consumed; nothing for no such stream. */
export async function* storedStreamChunks(store: StoredLog, streamId: string, chunkSize: number): AsyncGenerator<StoredEventText[]> {
  for (let fromRevision = 0; ;) {
    const chunk = await readStoredStream(store, streamId, { fromRevision, maxCount: chunkSize });
    if (chunk.length > 0) yield chunk;
    if (chunk.length < chunkSize) return;
    fromRevision = chunk[chunk.length - 1].revision + 1;
  }
}

/**
 * What `checkStreamChain` and `digestSection` of the whole stream give, read in chunks with O(1) state (docs/operations.md "Trainee
 * history"). A broken chain, or a digest's part that is not the stream's first events (positions are not hashed), has the stream read
 * again whole so each fault is classified.
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

/** Null when the chain does not hold or the digest's part is not a prefix. */
async function chunkedPass(
  store: StoredLog,
  streamId: string,
  digestPosition: LogPosition | null,
  chunkSize: number,
): Promise<{ headHash: string | null; events: number; coverage: StreamCoverage; firstPosition: LogPosition | undefined } | null> {
  const chain = new IntactChain();
  const coverage: StreamCoverage = { head: null, laterEvents: 0 };
  let firstPosition: LogPosition | undefined;
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
