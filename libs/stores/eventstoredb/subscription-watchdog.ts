/**
 * The stall rule (docs/DESIGN.md "Failures of the subscription") apart from its I/O: the client never notices a gRPC call that stays
 * open and delivers nothing, so the subscription asks now and then whether the log holds an event it should have had.
 */

export const DEFAULT_STALL_AFTER_MS = 30_000;

/** Times in ms of one monotonic-enough clock. */
export interface StallReading {
  nowMs: number;
  /** Null while the consumer is busy with an event. */
  waitingSinceMs: number | null;
  /** An event, filtered or not, or a checkpoint. */
  lastDeliveryMs: number;
  subscribedAtMs: number;
  /** Its last event, or a later server checkpoint. */
  reached: number;
  /** The newest event the filter matches, or null when none among the newest records looked at. */
  matchingHead: number | null;
}

export type StallVerdict = { stalled: false } | { stalled: true; silentMs: number; reached: number; matchingHead: number };

/** Since the latest of the wait's start, the last delivery and the subscription's opening; 0 while the consumer is not waiting. */
export function silenceMs(reading: Omit<StallReading, 'reached' | 'matchingHead'>): number {
  if (reading.waitingSinceMs === null) return 0;
  return Math.max(0, reading.nowMs - Math.max(reading.waitingSinceMs, reading.lastDeliveryMs, reading.subscribedAtMs));
}

/**
 * Silent `stallAfterMs` while the log holds a matching event beyond the position reached. A busy consumer is never stalled; a
 * caught-up one is idle; an unknown head tells nothing. RangeError for a `stallAfterMs` not > 0.
 */
export function assessStall(reading: StallReading, stallAfterMs: number): StallVerdict {
  if (!(stallAfterMs > 0)) throw new RangeError(`stallAfterMs must be > 0, got ${stallAfterMs}`);
  const silentMs = silenceMs(reading);
  if (silentMs < stallAfterMs || reading.matchingHead === null || reading.matchingHead <= reading.reached) return { stalled: false };
  return { stalled: true, silentMs, reached: reading.reached, matchingHead: reading.matchingHead };
}
