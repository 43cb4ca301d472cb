import type { EventStore } from '@app/event-store';
import { PROJECTED_STREAMS } from './projector';

/** How far a projection is behind the event log. */
export interface ProjectionLag {
  /** Position of the last event applied. */
  checkpoint: number;
  /** Events of the projected streams after the checkpoint (counted up to `cap`). */
  events: number;
  /** True when there were more than `cap` events to count. */
  atLeast: boolean;
  /** Age of the oldest event not yet applied, in seconds (0 when none). */
  seconds: number;
}

/**
 * Measures the lag of a projection at `checkpoint`: counts the projected events after it (reading
 * at most `cap`) and how long the oldest of them has waited (its `occurredAt` to `now`).
 */
export async function measureLag(eventStore: EventStore, checkpoint: number, now: Date = new Date(), cap = 10_000): Promise<ProjectionLag> {
  const pending = await eventStore.readAll({ fromPosition: checkpoint, maxCount: cap + 1, filter: PROJECTED_STREAMS });
  const oldest = pending[0];
  const seconds = oldest ? Math.max(0, (now.getTime() - Date.parse(oldest.metadata.occurredAt)) / 1000) : 0;
  return { checkpoint, events: Math.min(pending.length, cap), atLeast: pending.length > cap, seconds };
}
