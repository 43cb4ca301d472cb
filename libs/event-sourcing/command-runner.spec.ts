/**
 * runCommand (docs/DESIGN.md "The event store port" and property 2) over the real SQLite adapter:
 * a counter aggregate whose events add to a total, so the state shows which events were folded.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { newEventId } from './event-ids';
import {
  WrongExpectedVersionError,
  type AppendOptions,
  type ChainLink,
  type EventData,
  type EventStore,
  type RecordedEvent,
  type StoredEventText,
} from './event-store.port';
import { runCommand, type CommandRunnerSpec } from './command-runner';
import { openSqliteEventStore, type SqliteEventStore } from '@app/stores/sqlite';
import { checkStreamChain } from './chain-check';

type Added = { type: 'Added'; data: { amount: number } };

function envelopes(events: Added[]): EventData[] {
  return events.map((e) => ({
    id: newEventId(),
    type: e.type,
    data: e.data,
    metadata: { schemaVersion: 1, occurredAt: '2026-01-05T10:00:00.000Z' },
  }));
}

function counter(
  decide: (total: number) => Added[],
  extra: Partial<CommandRunnerSpec<number, Added>> = {},
): CommandRunnerSpec<number, Added> {
  return {
    initialState: 0,
    evolve: (total, e) => total + e.data.amount,
    decode: (r: RecordedEvent) => (r.type === 'Added' ? (r as RecordedEvent<Added['data']>) : null) as Added | null,
    decide,
    encode: envelopes,
    ...extra,
  };
}

const add = (amount: number): Added[] => [{ type: 'Added', data: { amount } }];

/** An event read back as the texts the store holds (it writes them with JSON.stringify). */
const storedText = (e: RecordedEvent): StoredEventText => ({
  streamId: e.streamId,
  revision: e.streamRevision,
  id: e.id,
  type: e.type,
  data: JSON.stringify(e.data),
  metadata: JSON.stringify(e.metadata),
});

describe('runCommand', () => {
  let dir: string;
  let store: SqliteEventStore;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'command-runner-'));
    store = openSqliteEventStore(dir);
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('replays the whole stream without a snapshot and appends with the revision read', async () => {
    await store.appendToStream('counter-1', envelopes([...add(1), ...add(2)]));
    const seen: number[] = [];
    const outcome = await runCommand(
      store,
      'counter-1',
      counter((total) => (seen.push(total), add(10))),
    );
    expect(seen).toEqual([3]);
    expect(outcome.state).toBe(13);
    expect((await store.readStream('counter-1')).map((r) => r.streamRevision)).toEqual([0, 1, 2]);
  });

  it('starts from a snapshot and folds only the events after its revision', async () => {
    await store.appendToStream('counter-1', envelopes([...add(1), ...add(2), ...add(4)]));
    // The snapshot claims 100 at revision 1: only revision 2 (+4) is read after it.
    const outcome = await runCommand(
      store,
      'counter-1',
      counter(() => add(10), { snapshot: { state: 100, head: { revision: 1, link: null } } }),
    );
    expect(outcome.state).toBe(114);
    expect(outcome.events).toEqual(add(10));
  });

  it('appends after a snapshot at the head of the stream (nothing after it to read)', async () => {
    await store.appendToStream('counter-1', envelopes([...add(1), ...add(2)]));
    const outcome = await runCommand(
      store,
      'counter-1',
      counter(() => add(5), { snapshot: { state: 3, head: { revision: 1, link: null } } }),
    );
    expect(outcome.state).toBe(8);
    expect(await store.readStream('counter-1')).toHaveLength(3);
  });

  it('replays the whole stream when the snapshot is ahead of it', async () => {
    await store.appendToStream('counter-1', envelopes(add(1)));
    const outcome = await runCommand(
      store,
      'counter-1',
      counter(() => add(5), { snapshot: { state: 50, head: { revision: 7, link: null } } }),
    );
    expect(outcome.state).toBe(6);
  });

  /** The real store, with another writer appending `+100` just before each of the next `times` appends. */
  function contended(times: number): EventStore {
    let left = times;
    return Object.assign(Object.create(store) as EventStore, {
      appendToStream: async (streamId: string, events: EventData[], options?: AppendOptions) => {
        if (left-- > 0) await store.appendToStream(streamId, envelopes(add(100)));
        return store.appendToStream(streamId, events, options);
      },
    });
  }

  /** The real store, recording the options of each append. */
  function recording(): { store: EventStore; options: (AppendOptions | undefined)[] } {
    const options: (AppendOptions | undefined)[] = [];
    const wrapped = Object.assign(Object.create(store) as EventStore, {
      appendToStream: async (streamId: string, events: EventData[], o?: AppendOptions) => {
        options.push(o);
        return store.appendToStream(streamId, events, o);
      },
    });
    return { store: wrapped, options };
  }

  it('passes the head back as the expected revision, its link the hash: from the last event read, else from the snapshot', async () => {
    await store.appendToStream('counter-1', envelopes([...add(1), ...add(2)]));
    const [, head] = await store.readStream('counter-1');
    const replayed = recording();
    await runCommand(
      replayed.store,
      'counter-1',
      counter(() => add(10)),
    );
    expect(replayed.options).toEqual([{ expectedRevision: { revision: 1, link: head.metadata.hash } }]);

    const [, , latest] = await store.readStream('counter-1');
    const fromSnapshot = recording();
    await runCommand(
      fromSnapshot.store,
      'counter-1',
      counter(() => add(1), { snapshot: { state: 13, head: { revision: 2, link: latest.metadata.hash as ChainLink } } }),
    );
    expect(fromSnapshot.options).toEqual([{ expectedRevision: { revision: 2, link: latest.metadata.hash } }]);

    const unknown = recording();
    await runCommand(
      unknown.store,
      'counter-1',
      counter(() => add(1), { snapshot: { state: 14, head: { revision: 3, link: null } } }),
    );
    expect(unknown.options).toEqual([{ expectedRevision: { revision: 3, link: null } }]);
    expect(checkStreamChain((await store.readStream('counter-1')).map(storedText)).faults).toEqual([]);
  });

  it('after a concurrent append, reads the new events and decides again (nothing lost)', async () => {
    await store.appendToStream('counter-1', envelopes(add(1)));
    const seen: number[] = [];
    const outcome = await runCommand(
      contended(1),
      'counter-1',
      counter((total) => (seen.push(total), add(total)), { snapshot: { state: 1, head: { revision: 0, link: null } } }),
    );
    expect(seen).toEqual([1, 101]);
    expect(outcome.state).toBe(202);
    expect((await store.readStream('counter-1')).map((r) => (r.data as { amount: number }).amount)).toEqual([1, 100, 101]);
  });

  it('rethrows WrongExpectedVersionError once the retries are spent', async () => {
    await store.appendToStream('counter-1', envelopes(add(1)));
    let attempts = 0;
    const run = runCommand(contended(3), 'counter-1', { ...counter(() => (attempts++, add(1))), maxRetries: 2 });
    await expect(run).rejects.toBeInstanceOf(WrongExpectedVersionError);
    expect(attempts).toBe(3);
  });

  it('appends nothing when the command decides nothing', async () => {
    const outcome = await runCommand(
      store,
      'counter-2',
      counter(() => []),
    );
    expect(outcome).toEqual({ state: 0, events: [], position: null });
    expect(await store.readStream('counter-2')).toEqual([]);
  });
});
