/**
 * What of the EventStoreDB adapter can be checked without a server: the factory's URL rule, option
 * and input validation (which must fail before any request is made), and close(). Each store here
 * points at 127.0.0.1:1, where nothing listens: were a check missing, the call would reach for the
 * network and fail with a different error than the one expected. Behaviour against a real server is
 * the shared contract's job (test/contract/eventstoredb-event-store.contract-spec.ts, which needs
 * EVENTSTORE_URL). Source: docs/DESIGN.md "The event store port",
 * docs/operations.md "Configuration".
 */
import { EventStoreDBClient } from '@eventstore/db-client';
import { PassThrough } from 'node:stream';
import { AppendTooLargeError, EventStoreUnavailableError, IdempotencyConflictError, LOG_START, logPosition } from '@app/event-sourcing';
import { EventStoreDbEventStore } from './eventstoredb-event-store';
import { assertEventStoreDbUrl, openEventStoreDb } from './open-eventstoredb';
import { EventStoreDbClientStandIn } from './testing/client-stand-in';
import { portEvent } from './testing/test-events';

const NOWHERE = 'esdb://127.0.0.1:1?tls=false';

describe('assertEventStoreDbUrl / openEventStoreDb', () => {
  it.each(['esdb://localhost:2113?tls=false', 'esdb+discover://cluster.example.com:2113', '  esdb://admin:changeit@db:2113  '])(
    'accepts %p and opens a store without contacting it',
    async (url) => {
      expect(() => assertEventStoreDbUrl(url)).not.toThrow();
      const store = openEventStoreDb(url);
      expect(store).toBeInstanceOf(EventStoreDbEventStore);
      await store.close();
    },
  );

  it.each(['', 'localhost:2113', 'http://localhost:2113', 'mongodb://localhost:27017', 'ESDB://localhost:2113', 'tcp://x:1113'])(
    'refuses %p, naming the accepted schemes',
    (url) => {
      expect(() => openEventStoreDb(url)).toThrow(/esdb:\/\/ or esdb\+discover:\/\//);
    },
  );

  it('refuses throwOnAppendFailure=false (a refused append would report the wrong actual revision)', () => {
    expect(() => openEventStoreDb('esdb://localhost:2113?tls=false&throwOnAppendFailure=false')).toThrow(/throwOnAppendFailure=false/);
    expect(() => openEventStoreDb('esdb://localhost:2113?throwOnAppendFailure=FALSE')).toThrow(/throwOnAppendFailure/);
    expect(() => assertEventStoreDbUrl('esdb://localhost:2113?tls=false&throwOnAppendFailure=true')).not.toThrow();
  });

  it('close() disposes the client and closes its gRPC channel', async () => {
    const client = EventStoreDBClient.connectionString(NOWHERE);
    const channel = await (
      client as unknown as { getChannel(): Promise<{ close(): void; getConnectivityState(c: boolean): number }> }
    ).getChannel();
    const close = jest.spyOn(channel, 'close');
    const dispose = jest.spyOn(client, 'dispose');
    const store = new EventStoreDbEventStore(client);
    await store.close();
    expect(dispose).toHaveBeenCalledTimes(1);
    expect(close).toHaveBeenCalledTimes(1);
    // SHUTDOWN (4) in grpc-js's ConnectivityState.
    expect(channel.getConnectivityState(false)).toBe(4);
  });

  it('never repeats credentials of a refused URL', () => {
    expect(() => assertEventStoreDbUrl('https://admin:s3cret@db:2113')).toThrow(/got "https:\/\/…"/);
    expect(() => assertEventStoreDbUrl('https://admin:s3cret@db:2113')).not.toThrow(/s3cret/);
  });

  it('reports an unparsable esdb:// string as an invalid connection string', () => {
    expect(() => openEventStoreDb('esdb://db:notaport')).toThrow(/not a valid EventStoreDB connection string/);
  });

  it('refuses invalid options', () => {
    expect(() => openEventStoreDb(NOWHERE, { maxConcurrentAppends: 0 })).toThrow(RangeError);
    expect(() => openEventStoreDb(NOWHERE, { readAllPageSize: 1 })).toThrow(RangeError);
  });
});

describe('EventStoreDbEventStore input checks (no request is made)', () => {
  let store: EventStoreDbEventStore;

  beforeEach(() => {
    store = new EventStoreDbEventStore(EventStoreDBClient.connectionString(NOWHERE));
  });

  afterEach(async () => {
    await store.close();
  });

  it('refuses invalid streams and events with a TypeError', async () => {
    await expect(store.appendToStream('', [portEvent()])).rejects.toThrow(TypeError);
    await expect(store.appendToStream('$settings', [portEvent()])).rejects.toThrow(TypeError);
    await expect(store.appendToStream('trainee-1', [{ ...portEvent(), id: 'nope' }])).rejects.toThrow(TypeError);
    await expect(store.appendToStream('trainee-1', [portEvent('$metadata')])).rejects.toThrow(TypeError);
  });

  it('refuses a repeated id inside one batch as an idempotency conflict', async () => {
    const e = portEvent();
    await expect(store.appendToStream('trainee-1', [e, e])).rejects.toBeInstanceOf(IdempotencyConflictError);
  });

  it('refuses invalid revisions, positions and counts with a RangeError', async () => {
    await expect(store.appendToStream('trainee-1', [portEvent()], { expectedRevision: -1 })).rejects.toThrow(RangeError);
    await expect(store.readStream('trainee-1', { fromRevision: -1 })).rejects.toThrow(RangeError);
    await expect(store.readAll({ fromPosition: logPosition(-5) })).rejects.toThrow(RangeError);
    await expect(store.readAll({ maxCount: 0 })).rejects.toThrow(RangeError);
    expect(() => store.subscribeToAll({ fromPosition: logPosition(1.5) })).toThrow(RangeError);
  });

  it('refuses every call once closed, and closes twice without error', async () => {
    const subscription = store.subscribeToAll();
    await store.close();
    await store.close();

    await expect(store.headPosition()).rejects.toThrow(/closed/);
    await expect(store.appendToStream('trainee-1', [portEvent()])).rejects.toThrow(/closed/);
    await expect(store.readStream('trainee-1')).rejects.toThrow(/closed/);
    await expect(store.readAll()).rejects.toThrow(/closed/);
    expect(() => store.subscribeToAll()).toThrow(/closed/);
    // The subscription opened before close() has ended without ever contacting the server.
    expect(await subscription[Symbol.asyncIterator]().next()).toEqual({ done: true, value: undefined });
  });

  it('starts with no append in flight', () => {
    expect(store.appendLoad).toEqual({ active: 0, queued: 0 });
  });
});

describe('EventStoreDbEventStore read deadlines and bounds', () => {
  /** A client whose reads never answer: each returns a stream that stays open, with the client's `cancel()`. */
  function hangingClient(opened: PassThrough[], cancelled: PassThrough[] = []): EventStoreDBClient {
    const read = () => {
      const stream = Object.assign(new PassThrough({ objectMode: true }), {
        cancel: async () => void cancelled.push(stream),
      });
      opened.push(stream);
      return stream;
    };
    return { readStream: read, readAll: read, dispose: async () => undefined } as unknown as EventStoreDBClient;
  }

  it('a read that does not finish within its deadline fails with EventStoreUnavailableError, is cancelled and destroyed', async () => {
    const opened: PassThrough[] = [];
    const cancelled: PassThrough[] = [];
    const store = new EventStoreDbEventStore(hangingClient(opened, cancelled), { readDeadlineMs: 20 });
    await expect(store.readStream('trainee-1')).rejects.toBeInstanceOf(EventStoreUnavailableError);
    await expect(store.readAll({ fromPosition: LOG_START, maxCount: 10 })).rejects.toBeInstanceOf(EventStoreUnavailableError);
    expect(opened.map((s) => s.destroyed)).toEqual([true, true]);
    expect(cancelled).toEqual(opened);
  });

  it('reads beyond the concurrent reads and the queue fail at once instead of piling up', async () => {
    const opened: PassThrough[] = [];
    const store = new EventStoreDbEventStore(hangingClient(opened), { maxConcurrentReads: 1, maxQueuedCalls: 1, readDeadlineMs: 60_000 });
    const first = store.readStream('trainee-1');
    const second = store.readStream('trainee-2');
    await expect(store.readStream('trainee-3')).rejects.toThrow(/the event store is busy/);
    expect(opened).toHaveLength(1);
    opened[0].end();
    await expect(first).resolves.toEqual([]);
    // The queued read starts once the first one's slot is free.
    while (opened.length < 2) await new Promise((r) => setImmediate(r));
    opened[1].end();
    await expect(second).resolves.toEqual([]);
  });
});

describe('EventStoreDbEventStore: an append over the server limit (client stand-in)', () => {
  it('rejects a 1.1 MiB batch with AppendTooLargeError naming the limit, writing nothing; a smaller one then appends', async () => {
    const store = new EventStoreDbEventStore(new EventStoreDbClientStandIn().asClient());
    try {
      const refused = await store
        .appendToStream('trainee-1', [portEvent('TraineeCreated', { text: 'x'.repeat(1_153_434) })], { expectedRevision: 'no_stream' })
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(AppendTooLargeError);
      expect(refused).toMatchObject({ streamId: 'trainee-1', limitBytes: 1_048_576 });
      expect(await store.readStream('trainee-1')).toEqual([]);
      const appended = await store.appendToStream('trainee-1', [portEvent()], { expectedRevision: 'no_stream' });
      expect(appended.nextExpectedRevision).toBe(0);
    } finally {
      await store.close();
    }
  });
});

describe('EventStoreDbEventStore: a failed server features call (client stand-in)', () => {
  const internal = () => Object.assign(new Error('13 INTERNAL: the server features call failed'), { code: 13 });

  it('the client keeps the failure: without a new client every append fails (client 6.2.1)', async () => {
    const client = new EventStoreDbClientStandIn();
    client.failServerFeatures(internal());
    const store = new EventStoreDbEventStore(client.asClient());
    try {
      await expect(store.appendToStream('trainee-1', [portEvent()])).rejects.toBeInstanceOf(EventStoreUnavailableError);
      await expect(store.appendToStream('trainee-1', [portEvent()])).rejects.toBeInstanceOf(EventStoreUnavailableError);
    } finally {
      await store.close();
    }
  });

  it.each([
    ['fails', internal()],
    ['goes unanswered', 'unanswered' as const],
  ])(
    'when it %s, the append is refused as unavailable, nothing written, and the next one goes through a new client',
    async (_, failure) => {
      const first = new EventStoreDbClientStandIn();
      first.failServerFeatures(failure);
      const made: EventStoreDbClientStandIn[] = [];
      const store = new EventStoreDbEventStore(first.asClient(), {
        serverFeaturesDeadlineMs: 50,
        newClient: () => (made.push(first.anotherClient()), made[made.length - 1].asClient()),
      });
      try {
        const refused = await store.appendToStream('trainee-1', [portEvent()], { expectedRevision: 'no_stream' }).catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(EventStoreUnavailableError);
        expect((refused as Error).message).toMatch(/server features call failed .*; a new client is made$/);
        expect(made).toHaveLength(1);
        expect(await store.readStream('trainee-1')).toEqual([]);
        const appended = await store.appendToStream('trainee-1', [portEvent()], { expectedRevision: 'no_stream' });
        expect(appended.nextExpectedRevision).toBe(0);
        expect(made).toHaveLength(1);
      } finally {
        await store.close();
      }
    },
  );
});

describe('EventStoreDbEventStore: an append the server does not answer, or a connection lost (client stand-in)', () => {
  it('fails past appendDeadlineMs as unavailable; written later, the same batch sent again gets the original result', async () => {
    const client = new EventStoreDbClientStandIn();
    const store = new EventStoreDbEventStore(client.asClient(), { appendDeadlineMs: 50 });
    try {
      const batch = [portEvent()];
      const release = client.holdAppends();
      const late = await store.appendToStream('trainee-1', batch, { expectedRevision: 'no_stream' }).catch((e: unknown) => e);
      expect(late).toBeInstanceOf(EventStoreUnavailableError);
      expect((late as Error).message).toMatch(/no answer in 50 ms: it may yet be written$/);
      release();
      await new Promise((resolve) => setTimeout(resolve, 20));
      const [written] = await store.readStream('trainee-1');
      expect(written.id).toBe(batch[0].id);
      const again = await store.appendToStream('trainee-1', batch, { expectedRevision: 'no_stream' });
      expect(again).toMatchObject({ nextExpectedRevision: 0, position: written.position });
      expect(await store.readStream('trainee-1')).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it("answers the client's UnavailableError on an append or a read as EventStoreUnavailableError (the API: 503)", async () => {
    const client = new EventStoreDbClientStandIn();
    const store = new EventStoreDbEventStore(client.asClient());
    try {
      client.failNextCalls(1);
      await expect(store.appendToStream('trainee-1', [portEvent()], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(
        EventStoreUnavailableError,
      );
      client.failNextCalls(1);
      await expect(store.readStream('trainee-1')).rejects.toBeInstanceOf(EventStoreUnavailableError);
      expect(await store.readStream('trainee-1')).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
