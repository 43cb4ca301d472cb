import { type EventStore, type RecordedEvent, checkStreamChain } from '@app/event-sourcing';
import { loadTraineeHistory, ownerOf, traineeStreamOf, traineeTimelinePage, type TimelineStatus } from '@app/trainees/read';
import { initialTraineeState, traineeStreamId, type TraineeState } from '@app/trainees/decider';
import { API_VERSIONS, type Trainee } from '@app/trainees/record';
import { AuditRefused, type AuditLog } from '../audit-log';
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

type Output = NodeJS.WritableStream;

/** `resolveId` maps a trainee id given in another case to the stored one (API-FACTS §1.10; null when none). */
export interface HistorySources extends Pick<AuditLog, 'storedLog' | 'eventStore' | 'openTrees'> {
  resolveId(traineeId: string): Promise<string | null>;
}

/**
 * Streams `trainee history --format html` to `out` (docs/operations.md "Trainee history") in chunks of `chunkSize` events, memory
 * bounded whatever the stream's length: the verification first (the chain checked as read; a broken stream re-read whole to classify
 * faults), then head and index, then the timeline, each pass reading the events the verification counted. The text equals
 * `renderHistoryReport(loadHistoryReport(...))`. `trustedKey` null: the verdict says the digest proves nothing until its key is compared.
 * {@link AuditRefused} for an unknown trainee, before anything is written.
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
 * The same report read whole into memory, for `renderHistoryReport` at once (tests compare it with {@link writeHistoryReport}'s).
 * {@link AuditRefused} for an unknown trainee.
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

/** Null when the kept tree is another digest's or none is kept, else whether its inclusion proof of the head holds. */
async function keptProof(
  sources: Pick<HistorySources, 'openTrees'>,
  streamId: string,
): Promise<(head: HashedHead, digest: SignedDigest) => boolean | null> {
  const trees = await sources.openTrees();
  const kept = await trees.latest(streamId).finally(() => trees.close());
  return (head, digest) =>
    kept?.digest.signature !== digest.signature ? null : kept.inclusion !== null && proofHolds(head, digest, kept.inclusion);
}

/** Opened events, each chunk read when the one before has been consumed. */
async function* openedChunks(eventStore: EventStore, streamId: string, chunkSize: number, count: number): AsyncGenerator<RecordedEvent[]> {
  for (let fromRevision = 0, read = 0; read < count;) {
    const chunk = await eventStore.readStream(streamId, { fromRevision, maxCount: Math.min(chunkSize, count - read) });
    if (chunk.length === 0) return;
    yield chunk;
    read += chunk.length;
    fromRevision = chunk[chunk.length - 1].streamRevision + 1;
  }
}

/** Usually the first chunk holds the registration; null without one. */
async function ownerOfChunks(chunks: AsyncGenerator<RecordedEvent[]>): Promise<string | null> {
  for await (const chunk of chunks) {
    const owner = ownerOf(chunk);
    if (owner !== null) return owner;
  }
  return null;
}
