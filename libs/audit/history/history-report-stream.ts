import type { EventStore, RecordedEvent } from '@app/event-sourcing';
import { loadTraineeHistory, ownerOf, traineeStreamOf, traineeTimelinePage, type TimelineStatus } from '@app/trainees/read';
import { initialTraineeState, traineeStreamId, type TraineeState } from '@app/trainees/decider';
import { API_VERSIONS, type Trainee } from '@app/trainees/record';
import { AuditRefused, type AuditLog } from '../audit-log';
import { checkStreamChain } from '../chain-check';
import type { HashedHead, SignedDigest, TrustedKey } from '../digest';
import { proofHolds } from '../digest-tree';
import { digestSection, latestRecordedDigest, readStoredStream } from '../stream-digest';
import { verifyStoredStream } from '../stream-verification';
import {
  faultsByRevision,
  foldStates,
  indexRows,
  reportClosing,
  reportOpening,
  TIMELINE_START,
  timelineEvents,
  type HistoryReportHead,
  type HistoryReportInput,
} from './history-report';
import { HISTORY_CHUNK, write, writeLast } from './timeline-output';

/** Where the report is written: process.stdout, or any writable stream. */
type Output = NodeJS.WritableStream;

/**
 * What a trainee's report reads: the log as stored and through the event store (personal values
 * opened), the kept digest tree (`AuditLog`), and the read model's mapping of a trainee id given
 * in another case to the stored one (docs/reference/API-FACTS.md §1.10; null when none).
 */
export interface HistorySources extends Pick<AuditLog, 'storedLog' | 'eventStore' | 'openTrees'> {
  resolveId(traineeId: string): Promise<string | null>;
}

/**
 * Writes the HTML report of `traineeId` (`trainee history <trainee_id> --format html`,
 * docs/operations.md "Trainee history") to `out` (default stdout) as it reads it, from the event
 * log alone in one opening of the stores, with memory bounded by a chunk of `chunkSize` events
 * (default {@link HISTORY_CHUNK}) whatever the stream's length. The text is exactly
 * `renderHistoryReport` of what {@link loadHistoryReport} reads, put together in order:
 * 1. the verification, before anything is written: the stream as stored, read in chunks, its chain
 *    checked as it is read and its coverage by the latest signed digest found (`verifyStoredStream`;
 *    a stream whose chain does not hold is read again whole, for each fault to be classified), with
 *    the kept tree's inclusion proof of its head;
 * 2. the page's head and verification, then the index, from a read of the stream (personal values
 *    opened) in chunks, the lifecycle state carried from chunk to chunk (`traineeTimelinePage`);
 * 3. the timeline, from another read in chunks, the trainee folded with the decider's `evolve`
 *    from chunk to chunk for each event's before → after and the trainee after it; then the footer.
 * Each part is written before the next chunk is read, waiting for `out` to drain when it asks to,
 * and the last until everything is handed on (a pipe's reader gets the whole page before the CLI exits).
 * The passes read the number of events the verification counted, so an event appended meanwhile
 * is in none of them. `trustedKey` is the key the digest's verdict is held to (null or omitted:
 * none is configured, and the verdict says the digest proves nothing until its key is compared;
 * docs/DESIGN.md "Who holds what"). {@link AuditRefused} for an unknown trainee, before anything
 * is written; writes nothing to the stores.
 */
export async function writeHistoryReport(
  sources: HistorySources,
  traineeId: string,
  out: Output = process.stdout,
  options: { chunkSize?: number; now?: () => Date; trustedKey?: TrustedKey | null } = {},
): Promise<void> {
  const chunkSize = options.chunkSize ?? HISTORY_CHUNK;
  const storedId = await traineeStreamOf(sources.storedLog, traineeId, (id) => sources.resolveId(id));
  if (storedId === null) throw new AuditRefused(`No trainee with id ${traineeId}`);
  const streamId = traineeStreamId(storedId);
  const { chain, digest, firstPosition } = await verifiedStream(sources, streamId, chunkSize, options.trustedKey ?? null);
  const chunks = () => openedChunks(sources.eventStore, streamId, chunkSize, chain.events);
  const head: HistoryReportHead = {
    traineeId: storedId,
    ukprn: await ownerOfChunks(chunks()),
    events: chain.events,
    firstPosition,
    chain,
    digest,
    apiVersion: API_VERSIONS[API_VERSIONS.length - 1],
    generatedAt: (options.now ?? (() => new Date()))().toISOString(),
  };
  const faultsAt = faultsByRevision(chain);
  await write(out, reportOpening(head));
  let status: TimelineStatus = 'none';
  for await (const chunk of chunks()) {
    const page = traineeTimelinePage(chunk, status);
    status = page.after;
    await write(out, indexRows(page.entries, faultsAt));
  }
  await write(out, TIMELINE_START);
  let state: TraineeState = initialTraineeState;
  let before: Trainee | null = null;
  let separator = '';
  status = 'none';
  for await (const chunk of chunks()) {
    const page = traineeTimelinePage(chunk, status);
    const folded = foldStates(chunk, state);
    await write(out, separator + timelineEvents(head, faultsAt, page.entries, folded.states, before).join('\n'));
    [status, state, before, separator] = [page.after, folded.state, folded.states[folded.states.length - 1], '\n'];
  }
  await writeLast(out, reportClosing(storedId));
}

/**
 * The verification of `streamId` the report opens with: its chain checked as it is read in chunks
 * of `chunkSize`, and its coverage by the latest digest recorded, with the kept tree's proof of its
 * head, held to `trustedKey`.
 */
async function verifiedStream(
  sources: HistorySources,
  streamId: string,
  chunkSize: number,
  trustedKey: TrustedKey | null,
): ReturnType<typeof verifyStoredStream> {
  const proveInclusion = await keptProof(sources, streamId);
  const recorded = await latestRecordedDigest(sources.storedLog);
  return verifyStoredStream(sources.storedLog, streamId, recorded, { proveInclusion, chunkSize, trustedKey });
}

/**
 * What `trainee history <trainee_id> --format html` reports, read whole into memory: the trainee's
 * stream (personal values opened), the same stream as stored and its chain's check
 * (`checkStreamChain`), and the latest signed digest recorded in the log (`digestSection`), with
 * whether the stream's head is proven under its root by the kept tree's inclusion proof. What
 * `renderHistoryReport` renders at once: the page {@link writeHistoryReport} writes in chunks (the
 * tests compare the two), the digest held to `trustedKey` as there. {@link AuditRefused} for an
 * unknown trainee. Writes nothing.
 */
export async function loadHistoryReport(
  sources: HistorySources,
  traineeId: string,
  now: () => Date = () => new Date(),
  trustedKey: TrustedKey | null = null,
): Promise<HistoryReportInput> {
  const history = await loadTraineeHistory(sources.eventStore, traineeId, { resolveId: (id) => sources.resolveId(id) });
  if (!history) throw new AuditRefused(`No trainee with id ${traineeId}`);
  const streamId = traineeStreamId(history.traineeId);
  const stored = await readStoredStream(sources.storedLog, streamId);
  const recorded = await latestRecordedDigest(sources.storedLog);
  const digest = digestSection(recorded, stored, await keptProof(sources, streamId), trustedKey);
  const chain = { ...checkStreamChain(stored), events: stored.length };
  return { history, chain, digest, apiVersion: API_VERSIONS[API_VERSIONS.length - 1], generatedAt: now().toISOString() };
}

/**
 * Whether the kept digest tree proves a head under a digest's root: null when the kept tree is
 * another digest's (or none is kept), else whether its inclusion proof of `streamId`'s head holds.
 */
async function keptProof(
  sources: Pick<HistorySources, 'openTrees'>,
  streamId: string,
): Promise<(head: HashedHead, digest: SignedDigest) => boolean | null> {
  const trees = await sources.openTrees();
  const kept = await trees.latest(streamId).finally(() => trees.close());
  return (head, digest) =>
    kept?.digest.signature !== digest.signature ? null : kept.inclusion !== null && proofHolds(head, digest, kept.inclusion);
}

/**
 * The first `count` events of `streamId` (personal values opened, as `eventStore` reads them), in
 * chunks of at most `chunkSize`, each read when the one before has been consumed.
 */
async function* openedChunks(eventStore: EventStore, streamId: string, chunkSize: number, count: number): AsyncGenerator<RecordedEvent[]> {
  for (let fromRevision = 0, read = 0; read < count;) {
    const chunk = await eventStore.readStream(streamId, { fromRevision, maxCount: Math.min(chunkSize, count - read) });
    if (chunk.length === 0) return;
    yield chunk;
    read += chunk.length;
    fromRevision = chunk[chunk.length - 1].streamRevision + 1;
  }
}

/** The owning provider from the first chunk that holds the registration (`ownerOf`; usually the first); null without one. */
async function ownerOfChunks(chunks: AsyncGenerator<RecordedEvent[]>): Promise<string | null> {
  for await (const chunk of chunks) {
    const owner = ownerOf(chunk);
    if (owner !== null) return owner;
  }
  return null;
}
