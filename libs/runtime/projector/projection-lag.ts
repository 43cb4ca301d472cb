import type { EventFilter, LogPosition, StoredLog } from '@app/event-sourcing';
import { PROJECTED_STREAMS } from './projector';

export interface ProjectionLag {
  checkpoint: LogPosition;
  /** Of the projected streams, counted up to the cap. */
  events: number;
  /** More than the cap. */
  atLeast: boolean;
  /** Of the oldest event not applied; 0 when none. */
  seconds: number;
}

/** Every `/readyz` probe and scrape may count: a projection far behind must not make each read the whole backlog. */
export const LAG_COUNT_CAP = 1_000;

/**
 * Reads the head first: at or below the checkpoint (the usual case) nothing else. Behind, counts up to `cap` + 1 events `filter` passes
 * and the oldest one's wait. Reads the log as stored: no key is read, so a missing key does not fail the probe.
 */
export async function measureLag(
  log: StoredLog,
  checkpoint: LogPosition,
  now: Date = new Date(),
  cap = LAG_COUNT_CAP,
  filter: EventFilter = PROJECTED_STREAMS,
): Promise<ProjectionLag> {
  if ((await log.headPosition()) <= checkpoint) return { checkpoint, events: 0, atLeast: false, seconds: 0 };
  const pending = await log.readAll({ fromPosition: checkpoint, maxCount: cap + 1, filter });
  const oldest = pending[0];
  const seconds = oldest ? Math.max(0, (now.getTime() - Date.parse(oldest.metadata.occurredAt)) / 1000) : 0;
  return { checkpoint, events: Math.min(pending.length, cap), atLeast: pending.length > cap, seconds };
}
