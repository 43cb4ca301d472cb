/**
 * The contract every {@link EventStore} adapter must pass (docs/DESIGN.md, "The event store port
 * (mirrors EventStoreDB)": "one shared contract test suite run against each").
 *
 * Written against the port only, so it also runs against a shared, non-empty server store: every
 * test uses streams and event types with a random suffix, and positions are compared with
 * `headPosition()` taken before the test, never with absolute numbers. Positions are only required
 * to be strictly increasing (EventStoreDB's commit positions have gaps).
 */
import { randomUUID } from 'node:crypto';
import {
  EventData,
  EventMetadata,
  EventStore,
  IdempotencyConflictError,
  RecordedEvent,
  WrongExpectedVersionError,
} from '@app/event-sourcing';

/** What a contract run needs from an adapter: a store, its cleanup, optionally a second client. */
export interface EventStoreContractContext {
  store: EventStore;
  /** Closes every store the factory and `openAnother` opened, and removes temporary data. */
  cleanup: () => Promise<void>;
  /** Opens another client of the same underlying store (another connection), if the adapter can. */
  openAnother?: () => Promise<EventStore>;
}

/** Safety net so a broken subscription fails a test instead of hanging it (not a timing assertion). */
const LIVENESS_LIMIT_MS = 10_000;

/**
 * Registers the contract suite for one adapter. `factory` is called before each test and its
 * `cleanup` after it. Source: docs/DESIGN.md, "The event store port" and the port's docs.
 */
/** What an adapter's backend guarantees beyond the port's minimum. */
export interface EventStoreCapabilities {
  /**
   * Event ids are unique across the whole store, so re-using one in another stream is refused
   * (SQLite). EventStoreDB keeps ids unique per stream only.
   */
  eventIdsUniqueAcrossStreams: boolean;
  /** The store has `appendToStreams`, all-or-nothing over several streams (SQLite; EventStoreDB has no multi-stream transactions). */
  atomicMultiStreamAppend?: boolean;
  /** The store has `readStreamsByPrefix`, whole streams in stream-id order (SQLite). */
  streamsByPrefix?: boolean;
}

export function describeEventStoreContract(
  name: string,
  factory: () => Promise<EventStoreContractContext>,
  capabilities: EventStoreCapabilities = { eventIdsUniqueAcrossStreams: true },
): void {
  describe(`EventStore contract: ${name}`, () => {
    let ctx: EventStoreContractContext;
    let store: EventStore;
    /** Unique per test: prefix of every stream name and event type the test uses. */
    let run: string;

    beforeEach(async () => {
      ctx = await factory();
      store = ctx.store;
      run = `ct${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    });

    afterEach(async () => {
      await ctx.cleanup();
    });

    describe('appendToStream and readStream', () => {
      it('reads back type, data, metadata, revisions 0..n-1 and increasing positions', async () => {
        const stream = `${run}trainee-1`;
        const headBefore = await store.headPosition();
        const events = [
          event('TraineeCreated', {
            first_names: 'Zoë Ann',
            nested: { list: [1, 'two', null, true], empty: {} },
            amount: 12.5,
            missing: null,
          }),
          event('TraineeUpdated', { field: 'last_name', value: "O'Brien" }),
          event('TraineeWithdrawn', { reasons: ['safeguarding_concerns'] }),
        ];

        const result = await store.appendToStream(stream, events, { expectedRevision: 'no_stream' });
        const read = await store.readStream(stream);

        expect(read.map(strip)).toEqual(events.map((e) => ({ ...e, id: e.id.toLowerCase() })));
        expect(read.map((e) => e.streamId)).toEqual([stream, stream, stream]);
        expect(read.map((e) => e.streamRevision)).toEqual([0, 1, 2]);
        expectStrictlyIncreasing(read.map((e) => e.position));
        expect(read[0].position).toBeGreaterThan(headBefore);
        expect(result).toEqual({ nextExpectedRevision: 2, position: read[2].position });
      });

      it('continues revisions across appends and reports the last revision and position', async () => {
        const stream = `${run}trainee-1`;
        const first = await store.appendToStream(stream, [event('A', { n: 1 })], { expectedRevision: 'no_stream' });
        const second = await store.appendToStream(stream, [event('B', { n: 2 }), event('C', { n: 3 })], {
          expectedRevision: 0,
        });

        const read = await store.readStream(stream);
        expect(read.map((e) => [e.type, e.streamRevision])).toEqual([
          ['A', 0],
          ['B', 1],
          ['C', 2],
        ]);
        expect(first).toEqual({ nextExpectedRevision: 0, position: read[0].position });
        expect(second).toEqual({ nextExpectedRevision: 2, position: read[2].position });
        expect(second.position).toBeGreaterThan(first.position);
      });

      it('reads a stream from a given revision', async () => {
        const stream = `${run}trainee-1`;
        await store.appendToStream(stream, [event('A', {}), event('B', {}), event('C', {}), event('D', {})]);

        const tail = await store.readStream(stream, { fromRevision: 2 });

        expect(tail.map((e) => [e.type, e.streamRevision])).toEqual([
          ['C', 2],
          ['D', 3],
        ]);
        expect(await store.readStream(stream, { fromRevision: 4 })).toEqual([]);
      });

      it('returns [] for a stream that does not exist', async () => {
        expect(await store.readStream(`${run}trainee-missing`)).toEqual([]);
      });

      it('keeps streams apart, each with its own revisions', async () => {
        const a = `${run}trainee-a`;
        const b = `${run}trainee-b`;
        await store.appendToStream(a, [event('A1', {})]);
        await store.appendToStream(b, [event('B1', {})]);
        await store.appendToStream(a, [event('A2', {})]);

        expect((await store.readStream(a)).map((e) => [e.type, e.streamRevision])).toEqual([
          ['A1', 0],
          ['A2', 1],
        ]);
        expect((await store.readStream(b)).map((e) => [e.type, e.streamRevision])).toEqual([['B1', 0]]);
      });
    });

    describe('expected revision', () => {
      it("'no_stream' appends to a new stream", async () => {
        const stream = `${run}s`;
        const result = await store.appendToStream(stream, [event('A', {})], { expectedRevision: 'no_stream' });
        expect(result.nextExpectedRevision).toBe(0);
        expect(await store.readStream(stream)).toHaveLength(1);
      });

      it("'no_stream' on an existing stream raises WrongExpectedVersionError with the actual revision", async () => {
        const stream = `${run}s`;
        await store.appendToStream(stream, [event('A', {}), event('B', {})]);

        const error = await rejection(store.appendToStream(stream, [event('C', {})], { expectedRevision: 'no_stream' }));

        expect(error).toBeInstanceOf(WrongExpectedVersionError);
        expect(error).toMatchObject({ streamId: stream, expected: 'no_stream', actual: 1 });
        expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['A', 'B']);
      });

      it('an exact revision appends when it matches the last revision', async () => {
        const stream = `${run}s`;
        await store.appendToStream(stream, [event('A', {}), event('B', {})]);
        const result = await store.appendToStream(stream, [event('C', {})], { expectedRevision: 1 });
        expect(result.nextExpectedRevision).toBe(2);
        expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['A', 'B', 'C']);
      });

      it('a stale exact revision raises WrongExpectedVersionError with the actual revision', async () => {
        const stream = `${run}s`;
        await store.appendToStream(stream, [event('A', {}), event('B', {}), event('C', {})]);

        const error = await rejection(store.appendToStream(stream, [event('D', {})], { expectedRevision: 0 }));

        expect(error).toBeInstanceOf(WrongExpectedVersionError);
        expect(error).toMatchObject({ streamId: stream, expected: 0, actual: 2 });
        expect(await store.readStream(stream)).toHaveLength(3);
      });

      it("an exact revision on a missing stream raises WrongExpectedVersionError with actual 'no_stream'", async () => {
        const stream = `${run}s`;
        const error = await rejection(store.appendToStream(stream, [event('A', {})], { expectedRevision: 0 }));

        expect(error).toBeInstanceOf(WrongExpectedVersionError);
        expect(error).toMatchObject({ streamId: stream, expected: 0, actual: 'no_stream' });
        expect(await store.readStream(stream)).toEqual([]);
      });

      it('an exact revision ahead of the stream raises WrongExpectedVersionError', async () => {
        const stream = `${run}s`;
        await store.appendToStream(stream, [event('A', {})]);
        const error = await rejection(store.appendToStream(stream, [event('B', {})], { expectedRevision: 5 }));
        expect(error).toBeInstanceOf(WrongExpectedVersionError);
        expect(error).toMatchObject({ expected: 5, actual: 0 });
      });

      it("'any' appends to a new and to an existing stream", async () => {
        const stream = `${run}s`;
        const first = await store.appendToStream(stream, [event('A', {})], { expectedRevision: 'any' });
        const second = await store.appendToStream(stream, [event('B', {})], { expectedRevision: 'any' });
        const third = await store.appendToStream(stream, [event('C', {})]);
        expect([first, second, third].map((r) => r.nextExpectedRevision)).toEqual([0, 1, 2]);
        expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['A', 'B', 'C']);
      });

      it("'stream_exists' appends to an existing stream", async () => {
        const stream = `${run}s`;
        await store.appendToStream(stream, [event('A', {})]);
        const result = await store.appendToStream(stream, [event('B', {})], { expectedRevision: 'stream_exists' });
        expect(result.nextExpectedRevision).toBe(1);
        expect(await store.readStream(stream)).toHaveLength(2);
      });

      it("'stream_exists' on a missing stream raises WrongExpectedVersionError with actual 'no_stream'", async () => {
        const stream = `${run}s`;
        const error = await rejection(store.appendToStream(stream, [event('A', {})], { expectedRevision: 'stream_exists' }));
        expect(error).toBeInstanceOf(WrongExpectedVersionError);
        expect(error).toMatchObject({ streamId: stream, expected: 'stream_exists', actual: 'no_stream' });
        expect(await store.readStream(stream)).toEqual([]);
      });

      it('a rejected batch writes none of its events', async () => {
        const stream = `${run}s`;
        const headBefore = await store.headPosition();
        await store.appendToStream(stream, [event('A', {})]);
        const batch = [event('B', {}), event('C', {}), event('D', {})];

        await expect(store.appendToStream(stream, batch, { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(
          WrongExpectedVersionError,
        );

        const all = await store.readAll({ fromPosition: headBefore, filter: { streamPrefixes: [run] } });
        expect(all.map((e) => e.type)).toEqual(['A']);
        // The ids of the rejected batch are still free: appending it properly succeeds.
        const retried = await store.appendToStream(stream, batch, { expectedRevision: 0 });
        expect(retried.nextExpectedRevision).toBe(3);
      });

      it('of concurrent appends expecting the same revision, exactly one succeeds', async () => {
        const stream = `${run}s`;
        await store.appendToStream(stream, [event('Created', {})], { expectedRevision: 'no_stream' });

        const outcomes = await Promise.allSettled(
          Array.from({ length: 5 }, (_, i) => store.appendToStream(stream, [event('Updated', { writer: i })], { expectedRevision: 0 })),
        );

        const fulfilled = outcomes.filter((o) => o.status === 'fulfilled');
        const rejected = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
        expect(fulfilled).toHaveLength(1);
        expect(rejected).toHaveLength(4);
        for (const r of rejected) {
          expect(r.reason).toBeInstanceOf(WrongExpectedVersionError);
          expect(r.reason).toMatchObject({ actual: 1 });
        }
        expect(await store.readStream(stream)).toHaveLength(2);
      });

      it('an empty batch checks the expected revision and returns the stream state without writing', async () => {
        const stream = `${run}s`;
        const missing = `${run}missing`;
        const appended = await store.appendToStream(stream, [event('A', {}), event('B', {})]);
        const headAfterAppend = await store.headPosition();

        expect(await store.appendToStream(stream, [], { expectedRevision: 1 })).toEqual(appended);
        expect(await store.appendToStream(stream, [], { expectedRevision: 'stream_exists' })).toEqual(appended);
        expect(await store.appendToStream(missing, [], { expectedRevision: 'no_stream' })).toEqual({
          nextExpectedRevision: -1,
          position: 0,
        });
        await expect(store.appendToStream(stream, [], { expectedRevision: 0 })).rejects.toMatchObject({
          name: 'WrongExpectedVersionError',
          actual: 1,
        });
        await expect(store.appendToStream(missing, [], { expectedRevision: 'stream_exists' })).rejects.toBeInstanceOf(
          WrongExpectedVersionError,
        );
        expect(await store.readStream(stream)).toHaveLength(2);
        expect(await store.readStream(missing)).toEqual([]);
        expect(await store.readAll({ fromPosition: headAfterAppend, filter: { streamPrefixes: [run] } })).toEqual([]);
      });
    });

    describe('concurrent appends (group commit on SQLite) and appendToStreams', () => {
      it('appends started together to different streams all commit, each with its own result', async () => {
        const streams = Array.from({ length: 20 }, (_, i) => `${run}c${i}`);
        const results = await Promise.all(streams.map((s) => store.appendToStream(s, [event('A', {})], { expectedRevision: 'no_stream' })));
        expectStrictlyIncreasing([...results.map((r) => r.position)].sort((a, b) => a - b));
        for (const [i, s] of streams.entries()) expect((await store.readStream(s)).map((e) => e.position)).toEqual([results[i].position]);
      });

      it('one refused append among appends started together fails alone', async () => {
        await store.appendToStream(`${run}taken`, [event('A', {})]);
        const [ok, refused, ok2] = await Promise.allSettled([
          store.appendToStream(`${run}x`, [event('X', {})], { expectedRevision: 'no_stream' }),
          store.appendToStream(`${run}taken`, [event('B', {})], { expectedRevision: 'no_stream' }),
          store.appendToStream(`${run}y`, [event('Y', {})], { expectedRevision: 'no_stream' }),
        ]);
        expect([ok.status, refused.status, ok2.status]).toEqual(['fulfilled', 'rejected', 'fulfilled']);
        expect((refused as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedVersionError);
        expect((await store.readStream(`${run}taken`)).map((e) => e.type)).toEqual(['A']);
        expect((await store.readStream(`${run}x`)).map((e) => e.type)).toEqual(['X']);
      });

      it('appends started together to the same stream behave as if one ran after the other', async () => {
        const stream = `${run}same`;
        const outcomes = await Promise.allSettled([
          store.appendToStream(stream, [event('A', {})], { expectedRevision: 'no_stream' }),
          store.appendToStream(stream, [event('B', {})], { expectedRevision: 'no_stream' }),
          store.appendToStream(stream, [event('C', {})], { expectedRevision: 0 }),
        ]);
        expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
        expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['A', 'C']);
      });

      it('appendToStreams, where the store has it, writes every stream or none', async () => {
        expect(store.appendToStreams !== undefined).toBe(capabilities.atomicMultiStreamAppend ?? false);
        if (!store.appendToStreams) return;
        const results = await store.appendToStreams([
          { streamId: `${run}guard`, events: [event('Claimed', {})], options: { expectedRevision: 'no_stream' } },
          { streamId: `${run}trainee`, events: [event('Registered', {}), event('Added', {})], options: { expectedRevision: 'no_stream' } },
        ]);
        expect(results.map((r) => r.nextExpectedRevision)).toEqual([0, 1]);
        expect(results[1].position).toBeGreaterThan(results[0].position);

        const error = await rejection(
          store.appendToStreams([
            { streamId: `${run}other`, events: [event('Claimed', {})], options: { expectedRevision: 'no_stream' } },
            { streamId: `${run}trainee`, events: [event('Again', {})], options: { expectedRevision: 'no_stream' } },
          ]),
        );
        expect(error).toBeInstanceOf(WrongExpectedVersionError);
        expect(await store.readStream(`${run}other`)).toEqual([]);
        expect((await store.readStream(`${run}trainee`)).map((e) => e.type)).toEqual(['Registered', 'Added']);
      });
    });

    describe('readStreamsByPrefix', () => {
      it('where the store has it, reads whole streams of the prefix in stream-id order, up to a position, from a cursor', async () => {
        expect(store.readStreamsByPrefix !== undefined).toBe(capabilities.streamsByPrefix ?? false);
        if (!store.readStreamsByPrefix) return;
        const prefix = `${run}trainee-`;
        // Appended interleaved, so position order and stream order differ.
        await store.appendToStream(`${prefix}b`, [event('B0', {})]);
        await store.appendToStream(`${prefix}a`, [event('A0', {}), event('A1', {})]);
        await store.appendToStream(`${run}trainee`, [event('NotInPrefix', {})]);
        await store.appendToStream(`${run}trainef`, [event('AfterPrefix', {})]);
        const { position: snapshot } = await store.appendToStream(`${prefix}b`, [event('B1', {}), event('B2', {})]);
        await store.appendToStream(`${prefix}c`, [event('C0', {})]);
        await store.appendToStream(`${prefix}a`, [event('A2AfterSnapshot', {})]);
        const read = (afterStream: string | null, maxCount: number, toPosition = snapshot) =>
          store.readStreamsByPrefix!({ streamPrefix: prefix, afterStream, toPosition, maxCount });
        const types = (events: RecordedEvent[]) => events.map((e) => e.type);

        expect(types(await read(null, 100))).toEqual(['A0', 'A1', 'B0', 'B1', 'B2']);
        // A page never ends inside a stream: the stream reached at maxCount is read to its end.
        expect(types(await read(null, 1))).toEqual(['A0', 'A1']);
        expect(types(await read(null, 3))).toEqual(['A0', 'A1', 'B0', 'B1', 'B2']);
        const page = await read(`${prefix}a`, 1);
        expect(types(page)).toEqual(['B0', 'B1', 'B2']);
        expect(page.map((e) => [e.streamId, e.streamRevision])).toEqual([
          [`${prefix}b`, 0],
          [`${prefix}b`, 1],
          [`${prefix}b`, 2],
        ]);
        expect(await read(`${prefix}b`, 10)).toEqual([]);
        expect(types(await read(`${prefix}b`, 10, await store.headPosition()))).toEqual(['C0']);
        await expect(read(null, 0)).rejects.toThrow(RangeError);
      });
    });

    describe('idempotent retry of the same event ids', () => {
      it('re-appending a batch returns the original result and writes nothing, whatever the expectation', async () => {
        const stream = `${run}s`;
        const batch = [event('A', { n: 1 }), event('B', { n: 2 })];
        const original = await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' });

        // 'no_stream' and 0 would both be wrong now; the retry is recognised by its ids first.
        expect(await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' })).toEqual(original);
        expect(await store.appendToStream(stream, batch, { expectedRevision: 0 })).toEqual(original);
        expect(await store.appendToStream(stream, batch, { expectedRevision: 'any' })).toEqual(original);
        expect(await store.appendToStream(stream, batch)).toEqual(original);

        const read = await store.readStream(stream);
        expect(read.map((e) => e.id)).toEqual(batch.map((e) => e.id.toLowerCase()));
      });

      it('recognises a retry after later events were appended to the stream', async () => {
        const stream = `${run}s`;
        const batch = [event('A', {})];
        const original = await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' });
        await store.appendToStream(stream, [event('B', {})], { expectedRevision: 0 });

        expect(await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' })).toEqual(original);
        expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['A', 'B']);
      });

      it('raises IdempotencyConflictError when only some ids were appended before, writing nothing', async () => {
        const stream = `${run}s`;
        const first = event('A', {});
        await store.appendToStream(stream, [first]);
        const fresh = event('B', {});

        const error = await rejection(store.appendToStream(stream, [first, fresh]));

        expect(error).toBeInstanceOf(IdempotencyConflictError);
        expect(error).toMatchObject({ eventId: first.id.toLowerCase() });
        expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['A']);
      });

      it('raises IdempotencyConflictError when a later id of the batch was appended before', async () => {
        const stream = `${run}s`;
        const old = event('A', {});
        await store.appendToStream(stream, [old]);

        const error = await rejection(store.appendToStream(stream, [event('B', {}), old]));

        expect(error).toBeInstanceOf(IdempotencyConflictError);
        expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['A']);
      });

      (capabilities.eventIdsUniqueAcrossStreams ? it : it.skip)(
        'raises IdempotencyConflictError when the ids were appended to another stream',
        async () => {
          const stream = `${run}s`;
          const other = `${run}other`;
          const batch = [event('A', {})];
          await store.appendToStream(stream, batch);

          const error = await rejection(store.appendToStream(other, batch));

          expect(error).toBeInstanceOf(IdempotencyConflictError);
          expect(error).toMatchObject({ streamId: other });
          expect(await store.readStream(other)).toEqual([]);
        },
      );

      it('raises IdempotencyConflictError when the ids come back in another order', async () => {
        const stream = `${run}s`;
        const a = event('A', {});
        const b = event('B', {});
        await store.appendToStream(stream, [a, b]);

        await expect(store.appendToStream(stream, [b, a])).rejects.toBeInstanceOf(IdempotencyConflictError);
        expect(await store.readStream(stream)).toHaveLength(2);
      });
    });

    describe('readAll', () => {
      /** Appends A1, B1, A2, C1, B2, A3 to streams `<run>a-1`, `<run>b-1`, `<run>c-1` (in that order). */
      async function appendInterleaved(): Promise<RecordedEvent[]> {
        const plan: Array<[string, string]> = [
          ['a', 'A1'],
          ['b', 'B1'],
          ['a', 'A2'],
          ['c', 'C1'],
          ['b', 'B2'],
          ['a', 'A3'],
        ];
        for (const [s, type] of plan) await store.appendToStream(`${run}${s}-1`, [event(`${run}${type}`, { type })]);
        const read: RecordedEvent[] = [];
        for (const s of ['a', 'b', 'c']) read.push(...(await store.readStream(`${run}${s}-1`)));
        return read.sort((x, y) => x.position - y.position);
      }

      it('yields events of all streams in global commit order', async () => {
        const headBefore = await store.headPosition();
        await appendInterleaved();

        const all = await store.readAll({ fromPosition: headBefore, filter: { streamPrefixes: [run] } });

        expect(all.map((e) => e.data)).toEqual(['A1', 'B1', 'A2', 'C1', 'B2', 'A3'].map((type) => ({ type })));
        expect(all.map((e) => `${e.streamId}@${e.streamRevision}`)).toEqual([
          `${run}a-1@0`,
          `${run}b-1@0`,
          `${run}a-1@1`,
          `${run}c-1@0`,
          `${run}b-1@1`,
          `${run}a-1@2`,
        ]);
        expectStrictlyIncreasing(all.map((e) => e.position));
        expect(all[0].position).toBeGreaterThan(headBefore);
      });

      it('without a filter, holds this test’s events in order among any others', async () => {
        const headBefore = await store.headPosition();
        const ours = await appendInterleaved();

        const all = await store.readAll({ fromPosition: headBefore, maxCount: 10_000 });

        expectStrictlyIncreasing(all.map((e) => e.position));
        expect(all.every((e) => e.position > headBefore)).toBe(true);
        const ourIds = new Set(ours.map((e) => e.id));
        expect(all.filter((e) => ourIds.has(e.id))).toEqual(ours);
      });

      it('reads after fromPosition, exclusively', async () => {
        const headBefore = await store.headPosition();
        const ours = await appendInterleaved();

        const after = await store.readAll({ fromPosition: ours[1].position, filter: { streamPrefixes: [run] } });

        expect(after).toEqual(ours.slice(2));
        expect(await store.readAll({ fromPosition: ours[5].position, filter: { streamPrefixes: [run] } })).toEqual([]);
        expect((await store.readAll({ fromPosition: headBefore, filter: { streamPrefixes: [run] } }))[0]).toEqual(ours[0]);
      });

      it('returns at most maxCount events, and pages through the log without gap or overlap', async () => {
        const headBefore = await store.headPosition();
        const ours = await appendInterleaved();
        const filter = { streamPrefixes: [run] };

        const pages: RecordedEvent[][] = [];
        let checkpoint = headBefore;
        for (;;) {
          const page = await store.readAll({ fromPosition: checkpoint, maxCount: 4, filter });
          if (page.length === 0) break;
          pages.push(page);
          checkpoint = page[page.length - 1].position;
        }

        expect(pages.map((p) => p.length)).toEqual([4, 2]);
        expect(pages.flat()).toEqual(ours);
      });

      it('filters by stream prefixes (OR-ed), literally and case-sensitively', async () => {
        const headBefore = await store.headPosition();
        await appendInterleaved();
        await store.appendToStream(`${run.toUpperCase()}a-1`, [event(`${run}UPPER`, {})]);
        await store.appendToStream(`${run}_a-1`, [event(`${run}UNDERSCORE`, {})]);
        await store.appendToStream(`${run}xa-1`, [event(`${run}X`, {})]);
        const read = (streamPrefixes: string[]) => store.readAll({ fromPosition: headBefore, filter: { streamPrefixes } });

        expect((await read([`${run}a-`, `${run}c-`])).map((e) => e.data)).toEqual([
          { type: 'A1' },
          { type: 'A2' },
          { type: 'C1' },
          { type: 'A3' },
        ]);
        expect((await read([`${run}_a-`])).map((e) => e.streamId)).toEqual([`${run}_a-1`]);
        expect(await read([`${run}%`])).toEqual([]);
        expect((await read([`${run.toUpperCase()}`])).map((e) => e.streamId)).toEqual([`${run.toUpperCase()}a-1`]);
      });

      it('filters by event types (OR-ed)', async () => {
        const headBefore = await store.headPosition();
        await appendInterleaved();

        const read = await store.readAll({
          fromPosition: headBefore,
          filter: { eventTypes: [`${run}B1`, `${run}A3`, `${run}NONE`] },
        });

        expect(read.map((e) => e.type)).toEqual([`${run}B1`, `${run}A3`]);
      });

      it('with both stream prefixes and event types, yields events matching either', async () => {
        const headBefore = await store.headPosition();
        await appendInterleaved();

        const read = await store.readAll({
          fromPosition: headBefore,
          filter: { streamPrefixes: [`${run}c-`], eventTypes: [`${run}A1`, `${run}B2`] },
        });

        expect(read.map((e) => e.data)).toEqual([{ type: 'A1' }, { type: 'C1' }, { type: 'B2' }]);
      });

      it('counts only matching events towards maxCount', async () => {
        const headBefore = await store.headPosition();
        await appendInterleaved();

        const read = await store.readAll({ fromPosition: headBefore, maxCount: 2, filter: { streamPrefixes: [`${run}a-`] } });

        expect(read.map((e) => e.data)).toEqual([{ type: 'A1' }, { type: 'A2' }]);
      });

      it('treats empty filter lists as no filter', async () => {
        const headBefore = await store.headPosition();
        const ours = await appendInterleaved();

        const read = await store.readAll({
          fromPosition: headBefore,
          maxCount: 10_000,
          filter: { streamPrefixes: [], eventTypes: [] },
        });

        const ourIds = new Set(ours.map((e) => e.id));
        expect(read.filter((e) => ourIds.has(e.id))).toEqual(ours);
      });
    });

    describe('headPosition', () => {
      it('is a non-negative integer that covers every appended event', async () => {
        const headBefore = await store.headPosition();
        expect(Number.isInteger(headBefore)).toBe(true);
        expect(headBefore).toBeGreaterThanOrEqual(0);

        const result = await store.appendToStream(`${run}s`, [event('A', {}), event('B', {})]);
        const headAfter = await store.headPosition();

        expect(result.position).toBeGreaterThan(headBefore);
        expect(headAfter).toBeGreaterThanOrEqual(result.position);
        const tail = await store.readAll({ fromPosition: headAfter, filter: { streamPrefixes: [run] } });
        expect(tail).toEqual([]);
      });
    });

    describe('subscribeToAll', () => {
      it('catches up on past events, then delivers live ones in order, none missed or repeated', async () => {
        const headBefore = await store.headPosition();
        const past = await appendMany(store, `${run}p-`, 3, 1);
        const subscription = store.subscribeToAll({ fromPosition: headBefore, filter: { streamPrefixes: [run] } });
        const iterator = subscription[Symbol.asyncIterator]();
        try {
          const caughtUp = await take(iterator, 3);
          expect(caughtUp.map((e) => e.id)).toEqual(past.map((e) => e.id));

          const pending = take(iterator, 5);
          const live: EventData[] = [];
          for (let i = 0; i < 3; i++) {
            const e = event(`${run}Live`, { i });
            live.push(e);
            await store.appendToStream(`${run}live-1`, [e]);
          }
          const batch = [event(`${run}Live`, { i: 3 }), event(`${run}Live`, { i: 4 })];
          live.push(...batch);
          await store.appendToStream(`${run}live-2`, batch);

          const received = await pending;
          expect(received.map((e) => e.id)).toEqual(live.map((e) => e.id.toLowerCase()));
          expectStrictlyIncreasing([...caughtUp, ...received].map((e) => e.position));
        } finally {
          await subscription.unsubscribe();
        }
        expect(await iterator.next()).toEqual({ done: true, value: undefined });
      });

      it('delivers events appended through another client of the same store', async () => {
        const other = ctx.openAnother ? await ctx.openAnother() : store;
        const headBefore = await store.headPosition();
        const subscription = store.subscribeToAll({ fromPosition: headBefore, filter: { streamPrefixes: [run] } });
        const iterator = subscription[Symbol.asyncIterator]();
        try {
          const pending = take(iterator, 4);
          const written = [
            ...(await appendMany(other, `${run}x-`, 2, 1)),
            ...(await appendMany(store, `${run}y-`, 1, 1)),
            ...(await appendMany(other, `${run}z-`, 1, 1)),
          ];
          expect((await pending).map((e) => e.id)).toEqual(written.map((e) => e.id));
        } finally {
          await subscription.unsubscribe();
        }
      });

      it('receives every event of many concurrent appends exactly once, in position order', async () => {
        const headBefore = await store.headPosition();
        const subscription = store.subscribeToAll({ fromPosition: headBefore, filter: { streamPrefixes: [run] } });
        const iterator = subscription[Symbol.asyncIterator]();
        try {
          const streams = 8;
          const appendsPerStream = 10;
          const pending = take(iterator, streams * appendsPerStream * 2);
          const written = await Promise.all(
            Array.from({ length: streams }, async (_, s) => {
              const ids: string[] = [];
              for (let i = 0; i < appendsPerStream; i++) {
                const batch = [event(`${run}C`, { s, i }), event(`${run}C`, { s, i, second: true })];
                await store.appendToStream(`${run}c-${s}`, batch, { expectedRevision: i === 0 ? 'no_stream' : i * 2 - 1 });
                ids.push(...batch.map((e) => e.id.toLowerCase()));
              }
              return ids;
            }),
          );

          const received = await pending;
          expectStrictlyIncreasing(received.map((e) => e.position));
          expect(received.map((e) => e.id).sort()).toEqual(written.flat().sort());
          const fromLog = await store.readAll({ fromPosition: headBefore, maxCount: 10_000, filter: { streamPrefixes: [run] } });
          expect(received).toEqual(fromLog);
        } finally {
          await subscription.unsubscribe();
        }
      });

      it('starts after a checkpoint, exclusively', async () => {
        const past = await appendMany(store, `${run}p-`, 4, 1);
        const recorded = await store.readStream(`${run}p-1`);
        const subscription = store.subscribeToAll({ fromPosition: recorded[1].position, filter: { streamPrefixes: [run] } });
        try {
          const received = await take(subscription[Symbol.asyncIterator](), 2);
          expect(received.map((e) => e.id)).toEqual(past.slice(2).map((e) => e.id));
        } finally {
          await subscription.unsubscribe();
        }
      });

      it('yields only events matching its filter, past and live', async () => {
        const headBefore = await store.headPosition();
        const wanted = `${run}Wanted`;
        await store.appendToStream(`${run}f-1`, [event(wanted, { n: 1 }), event(`${run}Other`, { n: 2 })]);
        const subscription = store.subscribeToAll({ fromPosition: headBefore, filter: { eventTypes: [wanted] } });
        try {
          const iterator = subscription[Symbol.asyncIterator]();
          const pending = take(iterator, 3);
          await store.appendToStream(`${run}f-2`, [event(`${run}Other`, { n: 3 })]);
          await store.appendToStream(`${run}f-2`, [event(wanted, { n: 4 }), event(`${run}Other`, { n: 5 })]);
          await store.appendToStream(`${run}f-3`, [event(wanted, { n: 6 })]);

          const received = await pending;
          expect(received.map((e) => [e.type, e.data])).toEqual([
            [wanted, { n: 1 }],
            [wanted, { n: 4 }],
            [wanted, { n: 6 }],
          ]);
        } finally {
          await subscription.unsubscribe();
        }
      });

      it('unsubscribe() ends a pending next() with done, and nothing is delivered afterwards', async () => {
        const headBefore = await store.headPosition();
        const subscription = store.subscribeToAll({ fromPosition: headBefore, filter: { streamPrefixes: [run] } });
        const iterator = subscription[Symbol.asyncIterator]();
        const pending = iterator.next();
        await settleFor(50); // let the subscription reach its live wait

        await subscription.unsubscribe();
        await store.appendToStream(`${run}s`, [event('A', {})]);

        expect(await withLimit(pending, 'a pending next() after unsubscribe()')).toEqual({ done: true, value: undefined });
        expect(await iterator.next()).toEqual({ done: true, value: undefined });
      });

      it('ends when a for-await loop breaks out of it', async () => {
        const headBefore = await store.headPosition();
        await appendMany(store, `${run}p-`, 3, 1);
        const subscription = store.subscribeToAll({ fromPosition: headBefore, filter: { streamPrefixes: [run] } });

        const seen: RecordedEvent[] = [];
        for await (const e of subscription) {
          seen.push(e);
          if (seen.length === 2) break;
        }

        expect(seen).toHaveLength(2);
        expect(await subscription[Symbol.asyncIterator]().next()).toEqual({ done: true, value: undefined });
      });

      it('serves two subscriptions independently', async () => {
        const headBefore = await store.headPosition();
        const first = store.subscribeToAll({ fromPosition: headBefore, filter: { streamPrefixes: [run] } });
        const second = store.subscribeToAll({ fromPosition: headBefore, filter: { streamPrefixes: [run] } });
        try {
          const pendingFirst = take(first[Symbol.asyncIterator](), 3);
          const pendingSecond = take(second[Symbol.asyncIterator](), 3);
          const written = await appendMany(store, `${run}p-`, 3, 1);
          const ids = written.map((e) => e.id);
          expect((await pendingFirst).map((e) => e.id)).toEqual(ids);
          expect((await pendingSecond).map((e) => e.id)).toEqual(ids);
        } finally {
          await first.unsubscribe();
          await second.unsubscribe();
        }
      });
    });
  });
}

/** A new event with a random UUID and complete metadata. */
function event(type: string, data: unknown): EventData {
  const metadata: EventMetadata = {
    schemaVersion: 1,
    occurredAt: '2026-01-05T10:00:00.000Z',
    providerUkprn: '10000001',
    apiVersion: 'v2026.1',
    requestId: randomUUID(),
    causationId: null,
    tokenId: 'token-1',
    custom: { nested: ['kept'] },
  };
  return { id: randomUUID(), type, data, metadata };
}

/**
 * Makes `count` single-event appends, one after the other, round-robin over the streams
 * `<streamPrefix>1` … `<streamPrefix><streams>`; returns the events in append order (ids lower-case).
 */
async function appendMany(
  store: EventStore,
  streamPrefix: string,
  count: number,
  streams: number,
): Promise<Array<EventData & { id: string }>> {
  const written: EventData[] = [];
  for (let i = 0; i < count; i++) {
    const e = event('Appended', { i });
    await store.appendToStream(`${streamPrefix}${(i % streams) + 1}`, [e]);
    written.push({ ...e, id: e.id.toLowerCase() });
  }
  return written;
}

/** The event as the writer gave it, without the store's placement fields. */
function strip(e: RecordedEvent): EventData {
  return { id: e.id, type: e.type, data: e.data, metadata: e.metadata };
}

function expectStrictlyIncreasing(values: number[]): void {
  for (let i = 1; i < values.length; i++) {
    if (!(values[i] > values[i - 1])) {
      throw new Error(`expected strictly increasing positions, got ${values[i - 1]} then ${values[i]} at index ${i}`);
    }
  }
  expect(values.every((v) => Number.isInteger(v) && v > 0)).toBe(true);
}

/** The error `promise` rejects with; fails when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

/** The next `count` events of `iterator`; fails (instead of hanging) if they do not all arrive. */
async function take(iterator: AsyncIterator<RecordedEvent>, count: number): Promise<RecordedEvent[]> {
  const received: RecordedEvent[] = [];
  const collect = (async () => {
    while (received.length < count) {
      const next = await iterator.next();
      if (next.done) throw new Error(`subscription ended after ${received.length} of ${count} events`);
      received.push(next.value);
    }
    return received;
  })();
  return withLimit(collect, () => `${count} events (received ${received.length})`);
}

/** `promise`, or a failure naming `what` if it has not settled within the liveness limit. */
async function withLimit<T>(promise: Promise<T>, what: string | (() => string)): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up waiting for ${typeof what === 'string' ? what : what()}`)), LIVENESS_LIMIT_MS);
  });
  try {
    return await Promise.race([promise, limit]);
  } finally {
    clearTimeout(timer);
  }
}

function settleFor(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
