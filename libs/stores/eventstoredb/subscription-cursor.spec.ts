/**
 * Subscription bookkeeping (subscription-cursor.ts): what a resilient subscription yields from the
 * items the server delivers, across resubscriptions, and where it resumes. Items are the plain
 * objects the client decodes; no server and no stream.
 */
import { START } from '@eventstore/db-client';
import { LOG_START, logPosition } from '@app/event-sourcing';
import { SubscriptionCursor } from './subscription-cursor';
import { PositionMappingError } from './positions';
import { resolved } from './testing/test-events';

/** Feeds items to the cursor and returns the positions it accepted. */
function feed(cursor: SubscriptionCursor, items: ReturnType<typeof resolved>[]): number[] {
  return items.flatMap((item) => {
    const accepted = cursor.accept(item);
    return accepted === null ? [] : [accepted.position];
  });
}

describe('SubscriptionCursor', () => {
  it('starts from START for checkpoint 0, and from the event at the checkpoint otherwise', () => {
    expect(new SubscriptionCursor(LOG_START, null).resumeFrom).toBe(START);
    expect(new SubscriptionCursor(logPosition(300), null).resumeFrom).toEqual({ commit: 300n, prepare: 300n });
    expect(() => new SubscriptionCursor(logPosition(-1), null)).toThrow(RangeError);
  });

  it('yields events in order and resumes from the last one yielded', () => {
    const cursor = new SubscriptionCursor(LOG_START, null);

    expect(feed(cursor, [resolved(100), resolved(250), resolved(400)])).toEqual([100, 250, 400]);
    expect(cursor.lastPosition).toBe(400);
    expect(cursor.resumeFrom).toEqual({ commit: 400n, prepare: 400n });
  });

  it('drops re-delivered events after a resubscription, never yielding at or below the last yielded position', () => {
    const cursor = new SubscriptionCursor(LOG_START, null);
    feed(cursor, [resolved(100), resolved(250)]);

    // The server (inclusive, or from an older resume point) sends 100 and 250 again, then new ones.
    expect(feed(cursor, [resolved(100), resolved(250), resolved(400), resolved(250), resolved(520)])).toEqual([400, 520]);
  });

  it("never yields the caller's checkpoint or anything before it", () => {
    const cursor = new SubscriptionCursor(logPosition(250), null);
    expect(feed(cursor, [resolved(100), resolved(250), resolved(400)])).toEqual([400]);
  });

  it('skips system events and events outside the filter without moving the resume point', () => {
    const cursor = new SubscriptionCursor(LOG_START, { streamPrefixes: ['trainee-'], eventTypes: ['ProviderAdded'] });

    const accepted = feed(cursor, [
      resolved(100, { streamId: '$stats-127.0.0.1:2113', type: '$statsCollected' }),
      resolved(150, { streamId: 'trainee-1', type: '$metadata' }),
      resolved(200, { streamId: 'provider-1', type: 'ProviderRenamed' }),
      resolved(300, { streamId: 'provider-1', type: 'ProviderAdded' }),
      resolved(400, { streamId: 'trainee-2', type: 'TraineeCreated' }),
      resolved(500, { streamId: 'other-1', type: 'Other' }),
    ]);

    expect(accepted).toEqual([300, 400]);
    expect(cursor.resumeFrom).toEqual({ commit: 400n, prepare: 400n });
  });

  it('adopts a server checkpoint only beyond the last yielded event', () => {
    const cursor = new SubscriptionCursor(LOG_START, null);
    feed(cursor, [resolved(400)]);

    cursor.adoptCheckpoint({ commit: 300n, prepare: 0n });
    expect(cursor.resumeFrom).toEqual({ commit: 400n, prepare: 400n });
    cursor.adoptCheckpoint({ commit: 400n, prepare: 400n });
    expect(cursor.resumeFrom).toEqual({ commit: 400n, prepare: 400n });

    cursor.adoptCheckpoint({ commit: 9000n, prepare: 0n });
    expect(cursor.resumeFrom).toEqual({ commit: 9000n, prepare: 0n });
    cursor.adoptCheckpoint({ commit: 8000n, prepare: 0n });
    expect(cursor.resumeFrom).toEqual({ commit: 9000n, prepare: 0n });

    // An event after the checkpoint moves the resume point on again; the last position is unchanged by checkpoints.
    expect(cursor.lastPosition).toBe(400);
    expect(feed(cursor, [resolved(9100)])).toEqual([9100]);
    expect(cursor.resumeFrom).toEqual({ commit: 9100n, prepare: 9100n });
  });

  it('ignores items without an event, and fails on an event it cannot position', () => {
    const cursor = new SubscriptionCursor(LOG_START, null);
    expect(cursor.accept({ commitPosition: 5n })).toBeNull();
    expect(() => cursor.accept(resolved(700, { prepare: 650n }))).toThrow(PositionMappingError);
    expect(cursor.lastPosition).toBe(0);
  });
});
