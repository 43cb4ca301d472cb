/**
 * Recognising a retried append (idempotency.ts): the port's rule, on plain stored-event lists.
 * Source: docs/DESIGN.md "The event store port" ("appending the same ids again is a no-op"), port docs of
 * `appendToStream` and `IdempotencyConflictError`.
 */
import { logPosition } from '@app/event-sourcing';
import { classifyRetry, StoredEventRef } from './idempotency';

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
