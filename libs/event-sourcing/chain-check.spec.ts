import { chainEvent, chainHash, readChainKeys, type StoredEventText } from '@app/event-sourcing';

import { STREAM, storedStream } from './testing/chained-streams';
import { VERSION_1_HEAD, VERSION_1_STREAM, VERSION_1_STREAM_ID } from './testing/version-1-stream';
import { checkStreamChain, IntactChain } from './chain-check';

/** A metadata text without its chain keys (`previousHash` and `hash` at its end). */
function withoutKeys(metadata: string): string {
  return metadata.slice(0, metadata.indexOf(',"previousHash"')) + '}';
}

/** Revisions 1 and 2 of the version 1 stream chained again by version 1, after a head of hash `head`. */
function relinkedV1(head: string): StoredEventText[] {
  let previous = head;
  return VERSION_1_STREAM.slice(1).map((e) => {
    const hashed = `${withoutKeys(e.metadata).slice(0, -1)},"previousHash":"${previous}"}`;
    previous = chainHash(previous, e.streamId, e.revision, e.type, e.data, hashed);
    return { ...e, metadata: `${hashed.slice(0, -1)},"hash":"${previous}"}` };
  });
}

describe('checkStreamChain', () => {
  it('passes an untouched stream, and gives its head hash', () => {
    const events = storedStream(5);
    expect(checkStreamChain(events)).toEqual({ faults: [], headHash: readChainKeys(events[4].metadata).hash });
  });

  it('passes a stream whose first events were stored before the chain began, chained to them', () => {
    expect(checkStreamChain(storedStream(3, 2)).faults).toEqual([]);
  });

  it('names an event whose data changed by one byte as altered, and nothing else', () => {
    const events = storedStream(5);
    events[2] = { ...events[2], data: events[2].data.replace('"n":2', '"n":3') };
    expect(checkStreamChain(events).faults).toEqual([expect.objectContaining({ revision: 2, kind: 'altered' })]);
  });

  it('names an event whose type or metadata changed, or that lost its chain keys, as altered', () => {
    const events = storedStream(5);
    events[1] = { ...events[1], type: 'TraineeWithdrawn' };
    events[3] = { ...events[3], metadata: events[3].metadata.replace('2026-01-04', '2026-01-05') };
    events[4] = { ...events[4], metadata: '{"schemaVersion":1}' };
    expect(checkStreamChain(events).faults.map((f) => [f.revision, f.kind])).toEqual([
      [1, 'altered'],
      [3, 'altered'],
      [4, 'altered'],
    ]);
  });

  it('names an event whose id or time (as the writer set it) changed as altered', () => {
    const events = storedStream(4);
    events[1] = { ...events[1], id: '00000000-0000-4000-8000-0000000000ff' };
    events[2] = { ...events[2], metadata: events[2].metadata.replace('T10:00:00.000Z', 'T10:00:00.001Z') };
    expect(checkStreamChain(events).faults.map((f) => [f.revision, f.kind])).toEqual([
      [1, 'altered'],
      [2, 'altered'],
    ]);
    expect(new IntactChain().add(events[0])).toBe(true);
  });

  it('passes a stream of version 1 events (literal, as stored then) followed by version 2 ones, never the reverse', () => {
    expect(checkStreamChain(VERSION_1_STREAM)).toEqual({ faults: [], headHash: VERSION_1_HEAD });
    const next = { streamId: VERSION_1_STREAM_ID, revision: 3, id: 'e3', type: 'TraineeUpdated', data: '{"n":3}', metadata: '{}' };
    const v2 = chainEvent(VERSION_1_HEAD, next);
    const mixed = [...VERSION_1_STREAM, { ...next, metadata: v2.metadata }];
    expect(checkStreamChain(mixed)).toEqual({ faults: [], headHash: v2.hash });
    // Version 1 events after a version 2 one: hashed by the old rule, chained as they should be, each still altered.
    const v2First = chainEvent(null, { ...VERSION_1_STREAM[0], metadata: withoutKeys(VERSION_1_STREAM[0].metadata) });
    const reverse = [{ ...VERSION_1_STREAM[0], metadata: v2First.metadata }, ...relinkedV1(v2First.hash)];
    expect(checkStreamChain(reverse).faults).toEqual(
      [1, 2].map((revision) => expect.objectContaining({ revision, kind: 'altered', detail: expect.stringContaining('version 1') })),
    );
    const chunks = new IntactChain();
    expect(reverse.map((e) => chunks.add(e))).toEqual([true, false, false]);
  });

  it('names a deleted event as missing, whether the later ones were renumbered or not', () => {
    const gap = storedStream(5).filter((e) => e.revision !== 2);
    expect(checkStreamChain(gap).faults.map((f) => [f.revision, f.kind])).toEqual([[2, 'missing']]);
    const renumbered = gap.map((e) => (e.revision > 2 ? { ...e, revision: e.revision - 1 } : e));
    expect(checkStreamChain(renumbered).faults.map((f) => [f.revision, f.kind])).toEqual([[2, 'missing']]);
  });

  it('names two swapped revisions as reordered, each once', () => {
    const events = storedStream(5);
    const swapped = [events[0], { ...events[2], revision: 1 }, { ...events[1], revision: 2 }, events[3], events[4]];
    expect(checkStreamChain(swapped).faults.map((f) => [f.revision, f.kind])).toEqual([
      [1, 'reordered'],
      [2, 'reordered'],
    ]);
  });

  it('names a forged event put in with a recomputed hash, or one put in place of another, as inserted', () => {
    const events = storedStream(4);
    const forgedText = {
      streamId: STREAM,
      revision: 1,
      id: 'forged',
      type: 'TraineeUpdated',
      data: '{"n":99}',
      metadata: '{"schemaVersion":1}',
    };
    const forged = chainEvent(readChainKeys(events[0].metadata).hash, forgedText);
    const forgedEvent = { ...forgedText, metadata: forged.metadata };
    const putIn = [events[0], forgedEvent, ...events.slice(1).map((e) => ({ ...e, revision: e.revision + 1 }))];
    expect(checkStreamChain(putIn).faults.map((f) => [f.revision, f.kind])).toEqual([[1, 'inserted']]);
    const replaced = [events[0], forgedEvent, events[2], events[3]];
    expect(checkStreamChain(replaced).faults.map((f) => [f.revision, f.kind])).toEqual([[1, 'inserted']]);
  });

  it('names an event moved in from another stream as altered (the stream id is hashed)', () => {
    const events = storedStream(3);
    const other = storedStream(3, 0, 'trainee-other');
    expect(checkStreamChain([...other.slice(0, 2), { ...events[2], streamId: 'trainee-other' }]).faults).toEqual([
      expect.objectContaining({ streamId: 'trainee-other', revision: 2, kind: 'altered' }),
    ]);
  });
});

describe('IntactChain (checkStreamChain a chunk at a time)', () => {
  /** Feeds `events` to a new IntactChain in chunks of `size`, as a chunked read gives them; the chunk at which it stopped holding. */
  function fed(events: StoredEventText[], size: number): { chain: IntactChain; brokeInChunk: number | null } {
    const chain = new IntactChain();
    let brokeInChunk: number | null = null;
    for (let start = 0; start < events.length; start += size) {
      const held = events.slice(start, start + size).map((e) => chain.add(e));
      if (brokeInChunk === null && held.includes(false)) brokeInChunk = start / size;
    }
    return { chain, brokeInChunk };
  }

  it('gives the head hash checkStreamChain gives, whatever the chunks, for a stream chained after unchained events', () => {
    const events = storedStream(5, 2);
    const whole = checkStreamChain(events);
    expect(whole.faults).toEqual([]);
    for (const size of [1, 2, 3, 7, 100]) {
      const { chain, brokeInChunk } = fed(events, size);
      expect([chain.intact, chain.headHash, chain.events, brokeInChunk]).toEqual([true, whole.headHash, 7, null]);
    }
    expect(new IntactChain().headHash).toBeNull();
  });

  it('stops holding at the first event that is not in place or in the chain, also the first one of a chunk, and stays so', () => {
    const events = storedStream(6);
    const altered = events.map((e) => (e.revision === 3 ? { ...e, data: e.data.replace('"n":3', '"n":4') } : e));
    const gap = events.filter((e) => e.revision !== 3);
    const swapped = [...events.slice(0, 3), { ...events[4], revision: 3 }, { ...events[3], revision: 4 }, events[5]];
    const unchained = events.map((e) => (e.revision === 3 ? { ...e, metadata: '{"schemaVersion":1}' } : e));
    for (const broken of [altered, gap, swapped, unchained]) {
      expect(checkStreamChain(broken).faults).not.toEqual([]);
      const { chain, brokeInChunk } = fed(broken, 3); // revision 3 opens the second chunk
      expect([chain.intact, brokeInChunk, chain.events]).toEqual([false, 1, 3]);
      expect(chain.add(events[0])).toBe(false);
    }
  });
});
