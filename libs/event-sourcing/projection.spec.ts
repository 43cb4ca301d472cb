/**
 * Folding a batch of recorded events into the documents it changes, as both adapters do
 * (docs/DESIGN.md "Read models": idempotent application; docs/STYLE.md "Projections as pure
 * functions"). A tiny projection of literal events keeps the fold's own rules in view.
 */
import { logPosition, type RecordedEvent } from './event-store.port';
import { decodeBatch, foldBatch, project, type Projection } from './projection';

interface Counted {
  counter: string;
  total: number;
  revision: number;
}

/** `Started` creates a counter, `Added` adds to one. */
interface CounterEvent {
  type: 'Started' | 'Added';
  data: { counter: string; by: number };
}

/** Counters: a tiny projection; no counter exists before its `Started`. */
const counters: Projection<CounterEvent, Counted> = {
  decode: (r) => (r.type === 'Added' || r.type === 'Started' ? ({ type: r.type, data: r.data } as CounterEvent) : null),
  keyOf: (e) => e.data.counter,
  evolve: (doc, e, r) => {
    if (e.type === 'Started') return { counter: e.data.counter, total: e.data.by, revision: r.streamRevision };
    return doc && { ...doc, total: doc.total + e.data.by, revision: r.streamRevision };
  },
};

let position = 0;
function event(type: string, counter: string, by: number, streamRevision: number): RecordedEvent {
  position += 1;
  return {
    id: `e${position}`,
    type,
    data: { counter, by },
    metadata: { schemaVersion: 1, occurredAt: '2025-01-01T00:00:00.000Z' },
    streamId: `counter-${counter}`,
    streamRevision,
    position: logPosition(position),
  };
}

describe('project', () => {
  it('applies an event above the revision, skips one at or below it, and ignores what it does not decode', () => {
    const doc: Counted = { counter: 'a', total: 1, revision: 3 };
    expect(project(counters, doc, event('Added', 'a', 2, 4))).toEqual({ counter: 'a', total: 3, revision: 4 });
    expect(project(counters, doc, event('Added', 'a', 2, 3))).toBe(doc);
    expect(project(counters, doc, event('Other', 'a', 2, 9))).toBe(doc);
  });
});

describe('decodeBatch and foldBatch', () => {
  it('folds each document from its stored state and returns those the batch changed, in order of first appearance', () => {
    const stored = new Map<string, Counted>([
      ['a', { counter: 'a', total: 10, revision: 1 }],
      ['c', { counter: 'c', total: 5, revision: 4 }],
    ]);
    const batch = decodeBatch(counters, [
      event('Added', 'c', 1, 3), // below c's revision: skipped
      event('Started', 'b', 7, 0),
      event('Other', 'z', 1, 0),
      event('Added', 'a', 1, 1), // redelivered: skipped
      event('Added', 'a', 2, 2),
      event('Added', 'b', 1, 1),
      event('Added', 'd', 1, 1), // d does not exist and is not started: no document
      event('Added', 'a', 3, 3),
    ]);
    expect(batch.keys).toEqual(['c', 'b', 'a', 'd']);
    expect(batch.events).toHaveLength(7);
    expect(foldBatch(counters, batch, stored)).toEqual([
      { key: 'b', before: null, after: { counter: 'b', total: 8, revision: 1 } },
      { key: 'a', before: { counter: 'a', total: 10, revision: 1 }, after: { counter: 'a', total: 15, revision: 3 } },
    ]);
  });

  it('changes nothing when the whole batch is redelivered', () => {
    const events = [event('Started', 'e', 1, 0), event('Added', 'e', 1, 1)];
    const [first] = foldBatch(counters, decodeBatch(counters, events), new Map());
    expect(first.after).toEqual({ counter: 'e', total: 2, revision: 1 });
    expect(foldBatch(counters, decodeBatch(counters, events), new Map([['e', first.after]]))).toEqual([]);
  });
});
