/**
 * Recognising a retried append from the stream's stored events (docs/DESIGN.md "The event store
 * port": "Each event has a UUID id; appending the same ids again is a no-op (idempotent retry, as
 * EventStoreDB does)"; port doc of `appendToStream` and `IdempotencyConflictError`).
 *
 * EventStoreDB itself deduplicates a retried batch only when it is sent with the same expected
 * revision as the first time (with `any` "it will do its best", client doc of `ExpectedRevision`).
 * The port promises more: the original result "whatever the expectation". The adapter therefore
 * compares the batch's ids with the stream's events whenever the server's answer does not settle
 * it (see the adapter), using {@link classifyRetry}, the same rule the SQLite adapter applies.
 */
import type { ReadStreamOptions } from '@eventstore/db-client';
import { IdempotencyConflictError, type AppendResult, type EventData, type LogPosition, type RecordedEvent } from '@app/event-sourcing';
import { toPortRevision } from './positions';

/** What {@link classifyRetry} needs of a stored event. */
export interface StoredEventRef {
  id: string;
  streamRevision: number;
  position: LogPosition;
}

/** Outcome of {@link classifyRetry}. */
export type RetryClassification =
  /** No id of the batch is in the stream: a new batch. */
  | { kind: 'new' }
  /** Every id is in the stream, at consecutive revisions in batch order: the original result. */
  | { kind: 'retry'; result: AppendResult }
  /** Some ids are in the stream, or all but not as the same batch: the first such id. */
  | { kind: 'conflict'; eventId: string };

/**
 * Classifies a batch (its lower-case ids, in order) against the events stored in its stream.
 * Returns `retry` with `{ nextExpectedRevision, position }` of the batch's last stored event when
 * the whole batch is stored consecutively in order; `conflict` naming the first batch id found in
 * the stream otherwise; `new` when none is found. An empty batch is `new`.
 */
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

/**
 * The original result when `ids` were appended to `streamId` (whose events are `stored`) as one
 * batch; null when none was; throws {@link IdempotencyConflictError} when some were, or not as that batch.
 */
export function retryResult(streamId: string, stored: readonly RecordedEvent[], ids: readonly string[]): AppendResult | null {
  const outcome = classifyRetry(stored, ids);
  if (outcome.kind === 'retry') return outcome.result;
  if (outcome.kind === 'conflict') throw new IdempotencyConflictError(streamId, outcome.eventId);
  return null;
}

/**
 * The result of an append the server acknowledged up to `nextExpectedRevision`: reads the batch
 * back from the leader (`read`, with the options given) for its last event's position, and checks
 * that the events stored at those revisions are the batch (throws otherwise).
 */
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
