/**
 * The stall rule of the EventStoreDB subscription (subscription-watchdog.ts; docs/DESIGN.md
 * "Failures of the subscription"):
 * when a silent subscription counts as stalled. Pure: readings are literals.
 */
import { assessStall, silenceMs, StallReading } from './subscription-watchdog';

/** A consumer waiting since 1 000 ms, nothing delivered since 500, subscribed at 0; now 40 000. */
const waiting: StallReading = {
  nowMs: 40_000,
  waitingSinceMs: 1_000,
  lastDeliveryMs: 500,
  subscribedAtMs: 0,
  reached: 700,
  matchingHead: 900,
};

describe('silenceMs', () => {
  it('counts from the latest of the wait, the last delivery and the subscription', () => {
    expect(silenceMs(waiting)).toBe(39_000);
    expect(silenceMs({ ...waiting, lastDeliveryMs: 30_000 })).toBe(10_000);
    expect(silenceMs({ ...waiting, subscribedAtMs: 35_000 })).toBe(5_000);
  });

  it('is 0 while the consumer is busy with an event', () => {
    expect(silenceMs({ ...waiting, waitingSinceMs: null })).toBe(0);
  });
});

describe('assessStall', () => {
  it('finds a stall when a waiting consumer heard nothing for the threshold while the log has a matching event beyond it', () => {
    expect(assessStall(waiting, 30_000)).toEqual({ stalled: true, silentMs: 39_000, reached: 700, matchingHead: 900 });
  });

  it('is not stalled before the threshold', () => {
    expect(assessStall({ ...waiting, lastDeliveryMs: 20_000 }, 30_000)).toEqual({ stalled: false });
  });

  it('is idle, not stalled, when caught up with the matching head', () => {
    expect(assessStall({ ...waiting, matchingHead: 700 }, 30_000)).toEqual({ stalled: false });
    expect(assessStall({ ...waiting, matchingHead: 0, reached: 0 }, 30_000)).toEqual({ stalled: false });
  });

  it('tells nothing when the matching head is unknown, or when the consumer is busy', () => {
    expect(assessStall({ ...waiting, matchingHead: null }, 30_000)).toEqual({ stalled: false });
    expect(assessStall({ ...waiting, waitingSinceMs: null }, 30_000)).toEqual({ stalled: false });
  });

  it('counts a checkpoint past the head as reached', () => {
    expect(assessStall({ ...waiting, reached: 950 }, 30_000)).toEqual({ stalled: false });
  });

  it('refuses a threshold that is not positive', () => {
    expect(() => assessStall(waiting, 0)).toThrow(RangeError);
  });
});
