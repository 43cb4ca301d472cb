import type { EventFilter, LogPosition, StoredLog } from '@app/event-sourcing';
import { PROJECTED_STREAMS } from './projector';

/** How far a projection is behind the event log. */
export interface ProjectionLag {
  /** Position of the last event applied. */
  checkpoint: LogPosition;
  /** Events of the projected streams after the checkpoint (counted up to the cap). */
  events: number;
  /** True when there were more than the cap to count. */
  atLeast: boolean;
  /** Age of the oldest event not yet applied, in seconds (0 when none). */
  seconds: number;
}

/**
 * Events counted at most by {@link measureLag}: every `/readyz` probe and every scrape may count, so
 * a projection far behind must not make each of them read the whole backlog (docs/observability.md
 * "Readings taken at scrape time").
 */
export const LAG_COUNT_CAP = 1_000;

/**
 * Measures the lag of a projection at `checkpoint`. The log's head position comes first: at or
 * below the checkpoint the projection is caught up and nothing else is read (the usual case, every
 * `/readyz` probe and every scrape). Behind, it reads the projected events after the checkpoint,
 * at most `cap` (default {@link LAG_COUNT_CAP}) + 1, and how long the oldest of them has waited (its
 * `occurredAt` to `now`); only events that `filter` passes count (default: the projected streams,
 * so events of streams the projector does not read do not count). It reads
 * the log as stored (`log`): positions and times are never sealed, so no key is read and no box
 * opened (docs/DESIGN.md "Personal data"), and a trainee whose key is missing does not fail the probe.
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
