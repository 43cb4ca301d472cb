import { traineeStreamId } from '@app/trainees/decider';
import type { RecordedEvent, StoredLog } from '@app/event-sourcing';
import { traineeTimelinePage, type TimelineEntry, type TimelineStatus } from './trainee-history';

/**
 * A trainee's timeline read in pages (docs/operations.md "Trainee history"): each page reads only
 * its own events from the trainee's stream (`readStream` from a revision, at most one more event
 * than the page holds), so its cost does not grow with the stream's length.
 */

/**
 * Where a timeline is read from: the log as stored (each entry shows its stored form, and its
 * events are read once) and how the events read from it are opened (docs/DESIGN.md "Personal
 * data": with sealing, their personal values opened as the event store opens them, `[erased]` once
 * the trainee's key is destroyed; without, the same events).
 */
export interface TimelineSource {
  storedLog: StoredLog;
  openStored<E extends RecordedEvent>(events: E[]): Promise<E[]>;
}

/** Injection token of the API's {@link TimelineSource}. */
export const TIMELINE_SOURCE = Symbol('TIMELINE_SOURCE');

/** Where a page of a trainee's timeline starts: the stream revision and the lifecycle state the events before it left. */
export interface TimelinePlace {
  /** 0-based revision of the page's first event in `trainee-<trainee_id>`. */
  revision: number;
  /** The lifecycle state before that revision (`'none'` at revision 0). */
  status: TimelineStatus;
}

/** The start of every timeline. */
export const TIMELINE_START: TimelinePlace = { revision: 0, status: 'none' };

/** A page of a trainee's timeline. */
export interface TimelinePage {
  /** At most the page's limit of entries, oldest first. */
  entries: TimelineEntry[];
  /** Where the next page starts: after the last entry, or where this page started when it has none. */
  next: TimelinePlace;
  /** True when the stream holds events after this page now. */
  hasMore: boolean;
}

/**
 * The page of `limit` (an integer ≥ 1) timeline entries of the stream `trainee-<traineeId>` (the
 * stored id, exact case) starting at `from`. Reads `limit + 1` events at most, to tell `hasMore`.
 * An empty page at revision 0 means no such stream. Rejects with a RangeError for a bad `limit`
 * or revision (the event store's check).
 */
export async function readTimelinePage(
  source: TimelineSource,
  traineeId: string,
  from: TimelinePlace,
  limit: number,
): Promise<TimelinePage> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be an integer ≥ 1, got ${limit}`);
  // Read as stored, then opened: each entry shows its stored form too, and the events are read once.
  const range = { fromRevision: from.revision, maxCount: limit + 1 };
  const stored = await source.storedLog.readStream(traineeStreamId(traineeId), range);
  const recorded = await source.openStored(stored);
  const page = recorded.length > limit ? recorded.slice(0, limit) : recorded;
  const { entries, after } = traineeTimelinePage(page, from.status, stored);
  const next = page.length === 0 ? from : { revision: page[page.length - 1].streamRevision + 1, status: after };
  return { entries, next, hasMore: recorded.length > limit };
}

/**
 * The whole timeline of `trainee-<traineeId>` (the stored id) in chunks of at most `chunkSize`
 * entries, oldest first, each read when the one before has been consumed: memory is bounded by a
 * chunk whatever the stream's length. Yields nothing for an unknown trainee. The chunks, joined,
 * are exactly `traineeTimeline` of the whole stream.
 */
export async function* timelineChunks(source: TimelineSource, traineeId: string, chunkSize: number): AsyncGenerator<TimelineEntry[]> {
  let from = TIMELINE_START;
  for (;;) {
    const page = await readTimelinePage(source, traineeId, from, chunkSize);
    if (page.entries.length > 0) yield page.entries;
    if (!page.hasMore) return;
    from = page.next;
  }
}

/**
 * The stored trainee id whose stream holds the history of `traineeId`: the id itself when its
 * stream exists, else what `resolveId` (optional; the read model's mapping of an id given in
 * another case, docs/reference/API-FACTS.md §1.10) answers when that stream exists; null otherwise.
 * Reads one event of a stream at most, as stored (nothing is opened).
 */
export async function traineeStreamOf(
  storedLog: StoredLog,
  traineeId: string,
  resolveId?: (traineeId: string) => Promise<string | null>,
): Promise<string | null> {
  const exists = async (id: string) => id !== '' && (await storedLog.readStream(traineeStreamId(id), { maxCount: 1 })).length > 0;
  if (await exists(traineeId)) return traineeId;
  const resolved = resolveId ? await resolveId(traineeId) : null;
  return resolved && resolved !== traineeId && (await exists(resolved)) ? resolved : null;
}
