import {
  chainEvent,
  chainHash,
  logPosition,
  StreamChainBrokenError,
  withoutChainKeys,
  WrongExpectedVersionError,
  type RecordedEvent,
} from '@app/event-sourcing';
import type { ReadStreamOptions } from '@eventstore/db-client';
import { chainHeadAt, headHashOf } from './chain-head';

/** A stream's events as the adapter reads them back: `legacy` stored before the chain began, then `chained`. */
function stream(legacy: number, chained: number): RecordedEvent[] {
  const events: RecordedEvent[] = [];
  let previous: string | null = null;
  for (let revision = 0; revision < legacy + chained; revision++) {
    const data = { n: revision };
    const metadata = { schemaVersion: 1 };
    let stored: Record<string, unknown> = metadata;
    if (revision < legacy) previous = chainHash(previous, 'trainee-1', revision, 'A', JSON.stringify(data), JSON.stringify(metadata));
    else {
      const text = {
        streamId: 'trainee-1',
        revision,
        id: `e${revision}`,
        type: 'A',
        data: JSON.stringify(data),
        metadata: JSON.stringify(metadata),
      };
      const c = chainEvent(previous, text);
      stored = JSON.parse(c.metadata) as Record<string, unknown>;
      previous = c.hash;
    }
    events.push({
      id: `e${revision}`,
      type: 'A',
      data,
      metadata: stored as RecordedEvent['metadata'],
      streamId: 'trainee-1',
      streamRevision: revision,
      position: logPosition(revision + 1),
    });
  }
  return events;
}

/** A read of `events` as the adapter's `readStreamEvents` answers the two reads chainHeadAt makes; records the calls. */
function reader(events: RecordedEvent[]) {
  const calls: ReadStreamOptions[] = [];
  const read = async (options: ReadStreamOptions) => {
    calls.push(options);
    return options.direction === 'backwards' ? events.slice(-1) : events;
  };
  return { read, calls };
}

describe('the head an EventStoreDB append chains to', () => {
  it('takes the hash the caller knows from its snapshot, reading nothing', async () => {
    const { read, calls } = reader(stream(0, 3));
    expect(await chainHeadAt(read, 'trainee-1', 2, 'c'.repeat(64))).toEqual({ revision: 2, hash: 'c'.repeat(64) });
    expect(calls).toEqual([]);
  });

  it("reads the last event's hash when the caller does not know it", async () => {
    const events = stream(0, 3);
    const { read, calls } = reader(events);
    expect(await chainHeadAt(read, 'trainee-1', 2, undefined)).toEqual({
      revision: 2,
      hash: events[2].metadata.hash,
    });
    expect(calls).toHaveLength(1);
  });

  it('computes the hash of a stream stored before the chain began over all its events', async () => {
    const events = stream(3, 0);
    const { read } = reader(events);
    const expected = chainHash(
      chainHash(
        chainHash(null, 'trainee-1', 0, 'A', '{"n":0}', '{"schemaVersion":1}'),
        'trainee-1',
        1,
        'A',
        '{"n":1}',
        '{"schemaVersion":1}',
      ),
      'trainee-1',
      2,
      'A',
      '{"n":2}',
      '{"schemaVersion":1}',
    );
    expect(await chainHeadAt(read, 'trainee-1', 2, null)).toEqual({ revision: 2, hash: expected });
    expect(headHashOf('trainee-1', events)).toBe(expected);
  });

  it('refuses, as the append would, a stream whose head is not the expected revision', async () => {
    const { read } = reader(stream(0, 3));
    await expect(chainHeadAt(read, 'trainee-1', 1, undefined)).rejects.toThrow(WrongExpectedVersionError);
  });

  it('starts a new stream from null', async () => {
    const { read, calls } = reader([]);
    expect(await chainHeadAt(read, 'trainee-1', 'no_stream', undefined)).toEqual({ revision: null, hash: null });
    expect(headHashOf('trainee-1', [])).toBeNull();
    expect(calls).toEqual([]);
  });

  it('refuses a head it reads whose stored form no longer makes its hash', async () => {
    const events = stream(0, 3);
    events[2] = { ...events[2], data: { n: 20 } };
    const { read } = reader(events);
    await expect(chainHeadAt(read, 'trainee-1', 2, undefined)).rejects.toThrow(new StreamChainBrokenError('trainee-1', 2));
  });

  it('refuses a head whose chain keys were taken away after chained events, reading the whole stream', async () => {
    const events = stream(1, 2);
    events[2] = { ...events[2], metadata: withoutChainKeys(events[2].metadata) };
    const { read, calls } = reader(events);
    await expect(chainHeadAt(read, 'trainee-1', 2, undefined)).rejects.toThrow(new StreamChainBrokenError('trainee-1', 2));
    expect(calls).toHaveLength(2);
  });

  it('refuses a stream it reads whole (an append with any or stream_exists) altered anywhere, naming the first revision', () => {
    const events = stream(0, 3);
    events[0] = { ...events[0], data: { n: 10 } };
    expect(() => headHashOf('trainee-1', events)).toThrow(new StreamChainBrokenError('trainee-1', 0));
    expect(headHashOf('trainee-1', stream(0, 3))).toBe(stream(0, 3)[2].metadata.hash);
  });
});
