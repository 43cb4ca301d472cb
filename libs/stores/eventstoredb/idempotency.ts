/**
 * A retried append recognised from the stream's events (docs/DESIGN.md "The event store port"): the server deduplicates a retry only
 * with the same expected revision (best-effort with `any`, client doc of `ExpectedRevision`), the port promises the original result
 * whatever the expectation. The same rule as the SQLite adapter's.
 */
import { BACKWARDS, END, type ReadStreamOptions } from '@eventstore/db-client';
import { IdempotencyConflictError, type AppendResult, type EventData, type LogPosition, type RecordedEvent } from '@app/event-sourcing';
import { toPortRevision } from './positions';

export interface StoredEventRef {
  id: string;
  streamRevision: number;
  position: LogPosition;
}

export type RetryClassification =
  /** No id of the batch is in the stream. */
  | { kind: 'new' }
  /** Every id, at consecutive revisions in batch order: the original result. */
  | { kind: 'retry'; result: AppendResult }
  /** Some ids, or all but not as one batch: the first such id. */
  | { kind: 'conflict'; eventId: string };

/** `batchIds` lower-case, in order; an empty batch is `new`. */
export function classifyRetry(stored: readonly StoredEventRef[], batchIds: readonly string[]): RetryClassification {
  if (batchIds.length === 0) return { kind: 'new' };
  const byId = new Map<string, StoredEventRef>();
  for (const event of stored) {
    const id = event.id.toLowerCase();
    if (!byId.has(id)) byId.set(id, event);
  }
  const found = batchIds.map((id) => byId.get(id.toLowerCase()));
  const firstFound = found.findIndex((event) => event !== undefined);
  if (firstFound < 0) return { kind: 'new' };
  const first = found[0];
  const sameBatch =
    first !== undefined && found.every((event, i) => event !== undefined && event.streamRevision === first.streamRevision + i);
  if (!sameBatch) return { kind: 'conflict', eventId: batchIds[firstFound].toLowerCase() };
  const last = found[found.length - 1]!;
  return { kind: 'retry', result: { nextExpectedRevision: last.streamRevision, position: last.position } };
}

/** The original result, or null for a new batch; IdempotencyConflictError for a conflict. */
export function retryResult(streamId: string, stored: readonly RecordedEvent[], ids: readonly string[]): AppendResult | null {
  const outcome = classifyRetry(stored, ids);
  if (outcome.kind === 'retry') return outcome.result;
  if (outcome.kind === 'conflict') throw new IdempotencyConflictError(streamId, outcome.eventId);
  return null;
}

/** Reads an acknowledged batch back from the leader for its last position (the response does not pin it); throws if it is not the batch. */
export async function readBack(
  read: (options: ReadStreamOptions) => Promise<RecordedEvent[]>,
  streamId: string,
  batch: readonly EventData[],
  nextExpectedRevision: bigint,
): Promise<AppendResult> {
  const lastRevision = toPortRevision(nextExpectedRevision);
  const firstRevision = lastRevision - batch.length + 1;
  const stored = firstRevision < 0 ? [] : await read({ fromRevision: BigInt(firstRevision), maxCount: batch.length, requiresLeader: true });
  const isBatch = stored.length === batch.length && stored.every((e, i) => e.id === batch[i].id && e.streamRevision === firstRevision + i);
  if (!isBatch) {
    throw new Error(
      `EventStoreDB acknowledged the append to ${streamId} up to revision ${lastRevision}, ` +
        'but the events stored at those revisions are not the appended batch',
    );
  }
  return { nextExpectedRevision: lastRevision, position: stored[stored.length - 1].position };
}

/** Events from a stream's end among which a retried batch is looked for ({@link recentEvents}). */
export const RETRY_WINDOW = 32;

/**
 * The stream's last `max(ids.length, RETRY_WINDOW)` events, oldest first, where a retry of the batch `ids` is looked for: a retry
 * comes soon after its batch, and reading the whole stream before each `any` append costs the stream. The whole stream when the
 * window holds some of `ids` but not all (a batch the window cuts). A batch further back is not recognised: with `any` it is
 * appended again, with an exact revision the append is refused as WrongExpectedVersionError.
 */
export async function recentEvents(
  read: (options: ReadStreamOptions) => Promise<RecordedEvent[]>,
  ids: readonly string[],
): Promise<RecordedEvent[]> {
  const window = Math.max(ids.length, RETRY_WINDOW);
  const tail = (await read({ fromRevision: END, direction: BACKWARDS, maxCount: BigInt(window), requiresLeader: true })).reverse();
  if (tail.length < window || tail[0].streamRevision === 0) return tail;
  const stored = new Set(tail.map((e) => e.id.toLowerCase()));
  const found = ids.filter((id) => stored.has(id.toLowerCase())).length;
  return found > 0 && found < ids.length ? read({ requiresLeader: true }) : tail;
}
