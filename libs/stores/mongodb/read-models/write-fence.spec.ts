/**
 * The fence between live batches and the drop of a swapped-out store (write-fence.ts;
 * docs/DESIGN.md "What the MongoDB read model guarantees"), on a clock the test sets.
 */
import { newEventId, toEventData, type RecordedEvent } from '@app/event-sourcing';
import type { TraineeEvent } from '@app/trainees/decider';
import { traineeRegistered } from '@app/trainees/decider/testing/trainee-events';
import { applyToStore, eraseInStore } from './mongo-apply';
import type { MongoRegistry } from './mongo-registry';
import { dropWaitMs, WriteFence, WriteWindowClosed } from './write-fence';
import { steppedDown } from '../testing/driver-faults';

describe('WriteFence', () => {
  it('lets a batch write until its window, counted from its registry read, is over', () => {
    let now = 1_000;
    const fence = new WriteFence(1_000, 30_000, () => now);
    now = 30_999;
    expect(() => fence.check()).not.toThrow();
    now = 31_000;
    expect(() => fence.check()).toThrow(WriteWindowClosed);
  });

  it('never closes the open fence of writes that cannot race a drop', () => {
    expect(() => WriteFence.OPEN.check()).not.toThrow();
  });
});

describe('dropWaitMs', () => {
  it('waits until the window and the margin after the lock have passed', () => {
    expect(dropWaitMs(10_000, 10_000, 30_000, 5_000)).toBe(35_000);
    expect(dropWaitMs(10_000, 40_000, 30_000, 5_000)).toBe(5_000);
    expect(dropWaitMs(10_000, 45_000, 30_000, 5_000)).toBe(0);
    expect(dropWaitMs(10_000, 90_000, 30_000, 5_000)).toBe(0);
  });

  it('keeps the margin to a sixth of a short window', () => {
    expect(dropWaitMs(0, 0, 300)).toBe(350);
    expect(dropWaitMs(0, 0, 30_000)).toBe(35_000);
  });

  it('outlasts every write of a batch that read the registry before the lock', () => {
    // A batch read the registry at 9 000 (before the lock took effect at 9 500, acknowledged at
    // 10 000); its last allowed write is before 9 000 + window; the drop comes after the margin.
    const windowMs = 30_000;
    const lastWrite = 9_000 + windowMs - 1;
    const drop = 10_000 + dropWaitMs(10_000, 10_000, windowMs);
    expect(drop).toBeGreaterThan(lastWrite);
  });
});

describe('applyToStore behind a fence', () => {
  /** A registry whose database must not be touched, counting checkpoint writes (an event no projection reads needs nothing else). */
  const registry = () => {
    const advanceCheckpoint = jest.fn(async () => undefined);
    // Collection handles are taken (no I/O); any call on one fails the test.
    const untouchable = new Proxy(
      {},
      {
        get: () => () => {
          throw new Error('no collection is read or written for an event no projection reads');
        },
      },
    );
    const db = { collection: () => untouchable };
    return { registry: { db, advanceCheckpoint } as unknown as MongoRegistry, advanceCheckpoint };
  };
  const unread = [
    { type: 'NothingProjected', position: 7, streamId: 'trainee-x', streamRevision: 0, data: {}, metadata: {} },
  ] as unknown as RecordedEvent[];

  it('writes nothing once the window is closed', async () => {
    const { registry: r, advanceCheckpoint } = registry();
    const closed = new WriteFence(0, 1, () => 5);
    await expect(applyToStore(r, 'trainees', 'v1', 1, unread, closed)).rejects.toThrow(WriteWindowClosed);
    await expect(applyToStore(r, 'providers', 'v1', 1, unread, closed)).rejects.toThrow(WriteWindowClosed);
    expect(advanceCheckpoint).not.toHaveBeenCalled();
  });

  it('writes the checkpoint while the window is open', async () => {
    const { registry: r, advanceCheckpoint } = registry();
    await applyToStore(r, 'trainees', 'v1', 1, unread, new WriteFence(0, 10, () => 5));
    expect(advanceCheckpoint).toHaveBeenCalledWith(7, 'trainees_v1', 1);
  });
});

describe('eraseInStore behind a fence (driver double)', () => {
  /**
   * A registry whose collections record what is sent to them; `deleteMany` and `deleteOne` create no collection, `bulkWrite` would.
   * `steppedDownOnce`: the first `deleteMany` is refused by a primary that stepped down (../testing/driver-faults.ts).
   */
  const registry = (steppedDownOnce = false) => {
    const sent: string[] = [];
    let refuse = steppedDownOnce;
    const collection = (name: string) => ({
      deleteMany: async () => {
        sent.push(`${name}.deleteMany`);
        if (refuse) {
          refuse = false;
          throw steppedDown();
        }
        return { deletedCount: 0 };
      },
      deleteOne: async () => (sent.push(`${name}.deleteOne`), { deletedCount: 0 }),
      bulkWrite: async () => (sent.push(`${name}.bulkWrite`), {}),
    });
    return { registry: { db: { collection } } as unknown as MongoRegistry, sent };
  };
  const at = '2026-01-01T00:00:00.000Z';
  const events: TraineeEvent[] = [
    traineeRegistered({ trainee_id: 'T1', ukprn: '10000001', at }),
    { type: 'TraineeErased', data: { trainee_id: 'T1', reason: 'Request DPO-1', erased_by: 'dpo', at } },
  ];
  const stream = toEventData(events, { occurredAt: at }, newEventId).map(
    (e, i) => ({ ...e, streamId: 'trainee-T1', streamRevision: i, position: 10 + i }) as unknown as RecordedEvent,
  );

  it('re-creates no feed collection once the window is closed (a swap may have dropped it)', async () => {
    const { registry: r, sent } = registry();
    const closed = new WriteFence(0, 1, () => 5);
    await expect(eraseInStore(r, 'v1', 'T1', '10000001', stream, closed)).rejects.toThrow(WriteWindowClosed);
    expect(sent).toEqual(['trainee_changes_v1.deleteMany']);
  });

  it('sends the deletion of the feed entries again after a step-down refused it, then finishes the erasure', async () => {
    const { registry: r, sent } = registry(true);
    await eraseInStore(r, 'v1', 'T1', '10000001', stream, new WriteFence(0, 10, () => 5));
    expect(sent).toEqual([
      'trainee_changes_v1.deleteMany',
      'trainee_changes_v1.deleteMany',
      'trainee_changes_v1.bulkWrite',
      'trainees_v1.deleteOne',
    ]);
  });

  it('writes the feed entries again and deletes the document while the window is open', async () => {
    const { registry: r, sent } = registry();
    await eraseInStore(r, 'v1', 'T1', '10000001', stream, new WriteFence(0, 10, () => 5));
    expect(sent).toEqual(['trainee_changes_v1.deleteMany', 'trainee_changes_v1.bulkWrite', 'trainees_v1.deleteOne']);
  });
});
