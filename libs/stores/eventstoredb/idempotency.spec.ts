/**
 * Recognising a retried append (idempotency.ts): the port's rule, on plain stored-event lists.
 * Source: docs/DESIGN.md "The event store port" ("appending the same ids again is a no-op"), port docs of
 * `appendToStream` and `IdempotencyConflictError`.
 */
import { logPosition, type RecordedEvent } from '@app/event-sourcing';
import type { ReadStreamOptions } from '@eventstore/db-client';
import { classifyRetry, recentEvents, RETRY_WINDOW, StoredEventRef } from './idempotency';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';
const C = 'cccccccc-0000-4000-8000-000000000003';
const D = 'dddddddd-0000-4000-8000-000000000004';

const stream: StoredEventRef[] = [
  { id: A, streamRevision: 0, position: logPosition(100) },
  { id: B, streamRevision: 1, position: logPosition(250) },
  { id: C, streamRevision: 2, position: logPosition(400) },
];

describe('classifyRetry', () => {
  it('is new when no id of the batch is stored, or the stream is empty', () => {
    expect(classifyRetry(stream, [D])).toEqual({ kind: 'new' });
    expect(classifyRetry([], [A, B])).toEqual({ kind: 'new' });
    expect(classifyRetry(stream, [])).toEqual({ kind: 'new' });
  });

  it('is a retry, with the original revision and position of its last event, when the batch is stored as one', () => {
    expect(classifyRetry(stream, [A, B])).toEqual({ kind: 'retry', result: { nextExpectedRevision: 1, position: 250 } });
    expect(classifyRetry(stream, [B, C])).toEqual({ kind: 'retry', result: { nextExpectedRevision: 2, position: 400 } });
    expect(classifyRetry(stream, [C])).toEqual({ kind: 'retry', result: { nextExpectedRevision: 2, position: 400 } });
  });

  it('compares ids case-insensitively', () => {
    expect(classifyRetry(stream, [A.toUpperCase()])).toEqual({ kind: 'retry', result: { nextExpectedRevision: 0, position: 100 } });
  });

  it('is a conflict naming the first stored id when only some ids are stored', () => {
    expect(classifyRetry(stream, [A, D])).toEqual({ kind: 'conflict', eventId: A });
    expect(classifyRetry(stream, [D, B])).toEqual({ kind: 'conflict', eventId: B });
  });

  it('is a conflict when all ids are stored but not consecutively in batch order', () => {
    expect(classifyRetry(stream, [B, A])).toEqual({ kind: 'conflict', eventId: B });
    expect(classifyRetry(stream, [A, C])).toEqual({ kind: 'conflict', eventId: A });
  });
});

describe('recentEvents', () => {
  /** A stream of `length` events whose ids are their revisions, and a read over it as the adapter's, recording each call. */
  function streamOf(length: number) {
    const events = Array.from({ length }, (_, i) => ({ id: `id-${i}`, streamRevision: i }) as RecordedEvent);
    const calls: ReadStreamOptions[] = [];
    const read = async (options: ReadStreamOptions) => {
      calls.push(options);
      return options.direction === 'backwards' ? events.slice(-Number(options.maxCount)).reverse() : events;
    };
    return { read, calls };
  }

  it('is the last RETRY_WINDOW events, oldest first, in one read, when the window holds all of the ids or none', async () => {
    const { read, calls } = streamOf(100);
    const tail = await recentEvents(read, ['new-1']);
    expect(tail.map((e) => e.streamRevision)).toEqual(Array.from({ length: RETRY_WINDOW }, (_, i) => 100 - RETRY_WINDOW + i));
    expect((await recentEvents(read, ['id-98', 'id-99'])).length).toBe(RETRY_WINDOW);
    expect(calls).toHaveLength(2);
  });

  it('reads the whole stream when the window cuts the batch (some of its ids in it, not all)', async () => {
    const { read } = streamOf(100);
    const ids = ['id-66', 'id-67', 'id-68', 'id-69'];
    expect(await recentEvents(read, ids)).toHaveLength(100);
  });
});
