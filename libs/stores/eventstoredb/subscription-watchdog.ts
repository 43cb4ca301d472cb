/**
 * The stall rule of the EventStoreDB subscription (docs/DESIGN.md "Failures of the subscription"),
 * kept apart from its I/O: a subscription whose gRPC call stays open but delivers nothing is never
 * noticed by the client, so the subscription asks now and then whether the log holds an event it
 * should have had.
 */

/** Default: a consumer that has waited this long (ms) with a matching event unseen has a stalled subscription. */
export const DEFAULT_STALL_AFTER_MS = 30_000;

/** What the subscription knows when it checks (times in ms of one monotonic-enough clock). */
export interface StallReading {
  /** Now. */
  nowMs: number;
  /** Since when the consumer has been waiting in `next()`; null while it is busy with an event. */
  waitingSinceMs: number | null;
  /** When the server last delivered anything (an event, filtered or not, or a checkpoint). */
  lastDeliveryMs: number;
  /** When the current server subscription was opened. */
  subscribedAtMs: number;
  /** Port position the subscription has reached: its last event, or a later server checkpoint. */
  reached: number;
  /**
   * Port position of the newest event in the log that the subscription's filter matches, or null
   * when it could not be told (none among the newest records looked at).
   */
  matchingHead: number | null;
}

/** The verdict of {@link assessStall}: how long the consumer has heard nothing while the log had more. */
export type StallVerdict = { stalled: false } | { stalled: true; silentMs: number; reached: number; matchingHead: number };

/**
 * Milliseconds the subscription has been silent for its consumer: since the latest of the wait's
 * start, the last delivery and the subscription's opening; 0 while the consumer is not waiting.
 */
export function silenceMs(reading: Omit<StallReading, 'reached' | 'matchingHead'>): number {
  if (reading.waitingSinceMs === null) return 0;
  return Math.max(0, reading.nowMs - Math.max(reading.waitingSinceMs, reading.lastDeliveryMs, reading.subscribedAtMs));
}

/**
 * Stalled when the consumer has waited at least `stallAfterMs` with nothing delivered and the log
 * holds an event matching the filter beyond the position reached. A consumer busy with an event is
 * never stalled (the subscription waits for it, not the other way round); a caught-up subscription
 * (matching head at or below the position reached) is idle, not stalled; an unknown matching head
 * tells nothing. Throws a RangeError for a `stallAfterMs` that is not a positive number.
 */
export function assessStall(reading: StallReading, stallAfterMs: number): StallVerdict {
  if (!(stallAfterMs > 0)) throw new RangeError(`stallAfterMs must be > 0, got ${stallAfterMs}`);
  const silentMs = silenceMs(reading);
  if (silentMs < stallAfterMs || reading.matchingHead === null || reading.matchingHead <= reading.reached) return { stalled: false };
  return { stalled: true, silentMs, reached: reading.reached, matchingHead: reading.matchingHead };
}
