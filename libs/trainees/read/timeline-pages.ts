import { traineeStreamId } from '@app/trainees/decider';
import type { RecordedEvent, StoredLog } from '@app/event-sourcing';
import { traineeTimelinePage, type TimelineEntry, type TimelineStatus } from './trainee-history';

/** The log as stored, and how its events are opened (`[erased]` once the key is destroyed; docs/DESIGN.md "Personal data"). */
export interface TimelineSource {
  storedLog: StoredLog;
  openStored<E extends RecordedEvent>(events: E[]): Promise<E[]>;
}

export const TIMELINE_SOURCE = Symbol('TIMELINE_SOURCE');

/** Where a page of a trainee's timeline starts: the stream revision and the lifecycle state the events before it left. */
export interface TimelinePlace {
  revision: number;
  /** The lifecycle state before that revision (`'none'` at revision 0). */
  status: TimelineStatus;
}

export const TIMELINE_START: TimelinePlace = { revision: 0, status: 'none' };

export interface TimelinePage {
  /** Oldest first. */
  entries: TimelineEntry[];
  /** After the last entry, or `from` when there is none. */
  next: TimelinePlace;
  hasMore: boolean;
}

/**
 * Up to `limit` (≥ 1) entries of the stored id's stream from `from`, reading `limit + 1` events at most, so a page's cost does not
 * grow with the stream (docs/operations.md "Trainee history"). Empty at revision 0: no such stream. RangeError for a bad limit.
 */
export async function readTimelinePage(
  source: TimelineSource,
  traineeId: string,
  from: TimelinePlace,
  limit: number,
): Promise<TimelinePage> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be an integer ≥ 1, got ${limit}`);
  const range = { fromRevision: from.revision, maxCount: limit + 1 };
  const stored = await source.storedLog.readStream(traineeStreamId(traineeId), range);
  const recorded = await source.openStored(stored);
  const page = recorded.length > limit ? recorded.slice(0, limit) : recorded;
  const { entries, after } = traineeTimelinePage(page, from.status, stored);
  const next = page.length === 0 ? from : { revision: page[page.length - 1].streamRevision + 1, status: after };
  return { entries, next, hasMore: recorded.length > limit };
}

/** The whole timeline in chunks of at most `chunkSize` entries, each read once the one before is consumed; nothing for an unknown id. */
export async function* timelineChunks(source: TimelineSource, traineeId: string, chunkSize: number): AsyncGenerator<TimelineEntry[]> {
  let from = TIMELINE_START;
  for (;;) {
    const page = await readTimelinePage(source, traineeId, from, chunkSize);
    if (page.entries.length > 0) yield page.entries;
    if (!page.hasMore) return;
    from = page.next;
  }
}

/** `traineeId`, or what `resolveId` maps it to (another case), whichever has a stream; null for neither. Reads one stored event at most. */
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
