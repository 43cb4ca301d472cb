/**
 * The EventStoreDB adapter over server behaviours the client stand-in models (libs/stores/eventstoredb/testing/client-stand-in.ts;
 * docs/DESIGN.md "Testing the EventStoreDB adapter without a server"): what the adapter does when it meets each. A stand-in, not a
 * server.
 */
import { CancelledError, START, UnavailableError, type ReadPosition } from '@eventstore/db-client';
import { EventStoreUnavailableError, LOG_START, StreamDeletedError, type RecordedEvent } from '@app/event-sourcing';
import { EventStoreDbEventStore } from './eventstoredb-event-store';
import { EventStoreDbClientStandIn } from './testing/client-stand-in';
import type { StandInSubscription } from './testing/stand-in-calls';
import { portEvent } from './testing/test-events';

/** Resolves once `condition` holds (checked on every turn of the event loop). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

/** `count` events in batches of 100 to `streamId`. */
async function appendMany(store: EventStoreDbEventStore, streamId: string, count: number): Promise<void> {
  for (let written = 0; written < count; written += 100) {
    const batch = Array.from({ length: Math.min(100, count - written) }, () => portEvent('Other', { n: written }));
    await store.appendToStream(streamId, batch, { expectedRevision: written === 0 ? 'no_stream' : written - 1 });
  }
}

/** The stand-in's `subscribeToAll`, recording where each call starts and the calls made. */
function watchSubscriptions(client: EventStoreDbClientStandIn): { from: ReadPosition[]; calls: StandInSubscription[] } {
  const seen = { from: [] as ReadPosition[], calls: [] as StandInSubscription[] };
  const subscribe = client.subscribeToAll.bind(client);
  jest.spyOn(client, 'subscribeToAll').mockImplementation((options = {}) => {
    seen.from.push(options.fromPosition ?? START);
    const call = subscribe(options);
    seen.calls.push(call);
    return call;
  });
  return seen;
}

describe('EventStoreDB adapter: checkpoints of a filtered subscription (client stand-in)', () => {
  it('resumes after a drop from the last {commit: X, prepare: 0} checkpoint, not from its last event, and loses nothing', async () => {
    const client = new EventStoreDbClientStandIn();
    const seen = watchSubscriptions(client);
    const store = new EventStoreDbEventStore(client.asClient(), { subscriptionBackoff: { initialMs: 1, maxMs: 2 }, stallAfterMs: 0 });
    try {
      const first = await store.appendToStream('trainee-1', [portEvent()], { expectedRevision: 'no_stream' });
      await appendMany(store, 'other-1', 400);
      const subscription = store.subscribeToAll({ fromPosition: LOG_START, filter: { streamPrefixes: ['trainee-'] } });
      const iterator = subscription[Symbol.asyncIterator]();
      expect((await iterator.next()).value).toMatchObject({ streamId: 'trainee-1', position: first.position });

      const next = iterator.next();
      // The catch-up's checkpoints, queued behind the event, are taken while the consumer waits.
      await until(() => seen.calls[0].readableLength === 0);
      client.dropSubscriptions();
      await until(() => seen.from.length === 2);
      // 402 records (the system record, 401 events) in pages of 32: the last page starts at the 385th record.
      const lastPage = client.recordPositions()[384];
      expect(seen.from[1]).toEqual({ commit: lastPage.commit, prepare: 0n });

      const second = await store.appendToStream('trainee-2', [portEvent()], { expectedRevision: 'no_stream' });
      const resumed = (await next).value as RecordedEvent;
      expect(resumed).toMatchObject({ streamId: 'trainee-2', position: second.position });
      await subscription.unsubscribe();
    } finally {
      await store.close();
    }
  });
});

describe('EventStoreDB adapter: a log of system records (client stand-in)', () => {
  it('reads as empty, and its head is read once, not at every call', async () => {
    const client = new EventStoreDbClientStandIn({ systemRecordsAtStart: 1_000 });
    const store = new EventStoreDbEventStore(client.asClient());
    try {
      expect(await store.headPosition()).toBe(LOG_START);
      expect(await store.readAll({ maxCount: 1, filter: { streamPrefixes: ['provider-'] } })).toEqual([]);
      const before = client.recordsHandedOut;
      expect(await store.headPosition()).toBe(LOG_START);
      expect(client.recordsHandedOut - before).toBeLessThanOrEqual(32);
    } finally {
      await store.close();
    }
  });

  it('keeps its events apart from the records a leader election appends: head, reads and subscriptions', async () => {
    const client = new EventStoreDbClientStandIn({ systemRecordsAtStart: 100 });
    const store = new EventStoreDbEventStore(client.asClient(), { stallAfterMs: 0 });
    try {
      const subscription = store.subscribeToAll({ filter: { streamPrefixes: ['trainee-'] } });
      const unfiltered = store.subscribeToAll();
      const first = await store.appendToStream('trainee-1', [portEvent()], { expectedRevision: 'no_stream' });
      client.electLeader();
      expect(await store.headPosition()).toBe(first.position);
      for (let i = 0; i < 50; i++) client.electLeader();
      const before = client.recordsHandedOut;
      expect(await store.headPosition()).toBe(first.position);
      expect(client.recordsHandedOut - before).toBeLessThanOrEqual(64);
      const second = await store.appendToStream('trainee-1', [portEvent()], { expectedRevision: 0 });
      client.electLeader();
      expect(await store.headPosition()).toBe(second.position);

      expect((await store.readAll()).map((e) => e.position)).toEqual([first.position, second.position]);
      for (const s of [subscription, unfiltered]) {
        const iterator = s[Symbol.asyncIterator]();
        expect((await iterator.next()).value).toMatchObject({ position: first.position });
        expect((await iterator.next()).value).toMatchObject({ position: second.position });
        await s.unsubscribe();
      }
    } finally {
      await store.close();
    }
  });
});

describe('EventStoreDB adapter: a tombstoned stream (client stand-in)', () => {
  it('answers reads and appends of it with StreamDeletedError, and leaves its tombstone out of $all', async () => {
    const client = new EventStoreDbClientStandIn();
    const store = new EventStoreDbEventStore(client.asClient(), { stallAfterMs: 0 });
    try {
      const subscription = store.subscribeToAll({ filter: { streamPrefixes: ['trainee-'] } });
      const iterator = subscription[Symbol.asyncIterator]();
      const written = await store.appendToStream('trainee-1', [portEvent(), portEvent()], { expectedRevision: 'no_stream' });
      await client.tombstoneStream('trainee-1');

      await expect(store.readStream('trainee-1')).rejects.toBeInstanceOf(StreamDeletedError);
      for (const expectedRevision of [1, 'any', 'no_stream', 'stream_exists'] as const) {
        const refused = await store.appendToStream('trainee-1', [portEvent()], { expectedRevision }).catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(StreamDeletedError);
        expect(refused).toMatchObject({ streamId: 'trainee-1' });
      }
      await expect(store.appendToStream('trainee-1', [], { expectedRevision: 'any' })).rejects.toBeInstanceOf(StreamDeletedError);

      expect((await store.readAll()).map((e) => e.streamId)).toEqual(['trainee-1', 'trainee-1']);
      expect(await store.headPosition()).toBe(written.position);
      const other = await store.appendToStream('trainee-2', [portEvent()], { expectedRevision: 'no_stream' });
      const positions: number[] = [];
      for (let i = 0; i < 3; i++) positions.push(((await iterator.next()).value as RecordedEvent).position);
      expect(positions.slice(1)).toEqual([written.position, other.position]);
      await subscription.unsubscribe();
    } finally {
      await store.close();
    }
  });
});

describe('EventStoreDB adapter: the shared batch-append call fails (client stand-in)', () => {
  it.each([
    ['UNAVAILABLE', () => new UnavailableError()],
    ['CANCELLED by the server', () => new CancelledError()],
  ])('%s: every append in flight is unavailable (503); sent again, each is written once', async (_, failure) => {
    const client = new EventStoreDbClientStandIn();
    const store = new EventStoreDbEventStore(client.asClient());
    try {
      await store.appendToStream('trainee-3', [portEvent()], { expectedRevision: 'no_stream' });
      const batches = [[portEvent()], [portEvent(), portEvent()], [portEvent()]];
      const sends = [
        () => store.appendToStream('trainee-1', batches[0], { expectedRevision: 'no_stream' }),
        () => store.appendToStream('trainee-2', batches[1], { expectedRevision: 'any' }),
        () => store.appendToStream('trainee-3', batches[2], { expectedRevision: 0 }),
      ];
      const release = client.holdAppends();
      const failed = sends.map((send) => send().catch((e: unknown) => e));
      await until(() => client.appendsInFlight === 3);
      // Two were written before the call broke, one not: the client cannot tell which.
      client.failBatchAppend(failure(), 2);
      release();
      for (const outcome of await Promise.all(failed)) expect(outcome).toBeInstanceOf(EventStoreUnavailableError);

      const again = [];
      for (const send of sends) again.push(await send());
      const streams = ['trainee-1', 'trainee-2', 'trainee-3'];
      const stored = await Promise.all(streams.map((stream) => store.readStream(stream)));
      expect(stored.map((events) => events.map((e) => e.id))).toEqual([
        batches[0].map((e) => e.id),
        batches[1].map((e) => e.id),
        [stored[2][0].id, batches[2][0].id],
      ]);
      expect(again.map((result) => result.position)).toEqual(stored.map((events) => events[events.length - 1].position));
    } finally {
      await store.close();
    }
  });
});

describe('EventStoreDB adapter: the cost of an append with any (client stand-in)', () => {
  it('reads the stream’s last events, not the whole stream, and still knows a retry among them', async () => {
    const client = new EventStoreDbClientStandIn();
    const store = new EventStoreDbEventStore(client.asClient());
    try {
      await appendMany(store, 'uploadledger', 500);
      const batch = [portEvent()];
      const before = client.recordsHandedOut;
      const appended = await store.appendToStream('uploadledger', batch, { expectedRevision: 'any' });
      // The last 32 events before it, then the batch read back.
      expect(client.recordsHandedOut - before).toBe(33);
      await store.appendToStream('uploadledger', [portEvent()], { expectedRevision: 'any' });
      expect(await store.appendToStream('uploadledger', batch, { expectedRevision: 'any' })).toEqual(appended);
      expect(await store.readStream('uploadledger', { fromRevision: 500 })).toHaveLength(2);
    } finally {
      await store.close();
    }
  });
});

describe('EventStoreDB adapter: a filtered readAll asked again while nothing it wants comes (client stand-in)', () => {
  it('costs the records appended since the last call, not every record after the position', async () => {
    const client = new EventStoreDbClientStandIn();
    const store = new EventStoreDbEventStore(client.asClient());
    try {
      const first = await store.appendToStream('trainee-1', [portEvent()], { expectedRevision: 'no_stream' });
      await appendMany(store, 'uploadlist-1', 2_000);
      const projected = { fromPosition: first.position, maxCount: 1, filter: { streamPrefixes: ['trainee-'] } };
      expect(await store.readAll(projected)).toEqual([]);
      let before = client.recordsHandedOut;
      expect(await store.readAll(projected)).toEqual([]);
      expect(client.recordsHandedOut - before).toBe(1);

      await appendMany(store, 'uploadlist-2', 100);
      const second = await store.appendToStream('trainee-2', [portEvent()], { expectedRevision: 'no_stream' });
      before = client.recordsHandedOut;
      expect((await store.readAll(projected)).map((e) => e.position)).toEqual([second.position]);
      expect(client.recordsHandedOut - before).toBeLessThanOrEqual(102);
      expect((await store.readAll({ ...projected, maxCount: 5 })).map((e) => e.position)).toEqual([second.position]);
      expect((await store.readAll({ fromPosition: LOG_START, filter: { streamPrefixes: ['trainee-'] } })).length).toBe(2);
    } finally {
      await store.close();
    }
  });
});
