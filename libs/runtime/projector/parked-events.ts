import { PROVIDER_STREAM_PREFIX } from '@app/providers/decider';
import type { LogPosition, RecordedEvent } from '@app/event-sourcing';
import type { ProjectionName } from './projection-versions';

/**
 * An event the projector gave up applying after `PROJECTOR_MAX_ATTEMPTS` attempts
 * (docs/operations.md "Configuration" and "Health"): recorded, skipped (the checkpoint moves past
 * it) and shown by `admin projections status` and the metrics.
 */
export interface ParkedEvent {
  /** The projection whose streams hold the event (by the stream's prefix). */
  projection: ProjectionName;
  stream_id: string;
  /** 0-based revision within the stream. */
  revision: number;
  type: string;
  /** Global position. */
  position: LogPosition;
  /** The store's error message on the last attempt (at most 500 characters). */
  error: string;
  attempts: number;
  /** ISO 8601 instant, UTC. */
  parked_at: string;
}

/**
 * Where parked events are kept: beside the projections' checkpoints, outside the versioned
 * projection stores (a parked event concerns the served stores, whatever their version; a rebuild
 * that swaps a projection in applied every event again, so its swap forgets that projection's
 * parked events).
 */
export interface ParkedEventStore {
  /**
   * Records `event` as parked and moves the served stores' checkpoints to its position (never
   * back), atomically where the store allows. Idempotent: a position already parked is kept as is.
   */
  parkEvent(event: ParkedEvent): Promise<void>;
  /** The parked events, in position order. */
  parkedEvents(): Promise<ParkedEvent[]>;
}

/** True when `store` keeps parked events (both bundled read stores do). */
export function keepsParkedEvents(store: unknown): store is ParkedEventStore {
  const s = store as Partial<ParkedEventStore>;
  return typeof s.parkEvent === 'function' && typeof s.parkedEvents === 'function';
}

/** The parked record of `event` after `attempts` failed attempts ending with `error`. */
export function parkedRecord(event: RecordedEvent, error: unknown, attempts: number, parkedAt: Date): ParkedEvent {
  return {
    projection: event.streamId.startsWith(PROVIDER_STREAM_PREFIX) ? 'providers' : 'trainees',
    stream_id: event.streamId,
    revision: event.streamRevision,
    type: event.type,
    position: event.position,
    error: errorMessage(error),
    attempts,
    parked_at: parkedAt.toISOString(),
  };
}

/** An error's message, at most 500 characters (a store's message can quote a whole document). */
export function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 500 ? `${message.slice(0, 497)}...` : message;
}
