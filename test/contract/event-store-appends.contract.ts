/**
 * The event store contract's suite of appends (test/contract/event-store.contract.ts): appending
 * and reading a stream back, expected revisions, idempotent retries of the same event ids, and
 * concurrent appends (with `appendToStreams` where the store has it). Source: docs/DESIGN.md,
 * "The event store port" and the port's docs.
 */
import { randomUUID } from 'node:crypto';
import { EventStore, IdempotencyConflictError, WrongExpectedVersionError } from '@app/event-sourcing';
import { event, expectStrictlyIncreasing, rejection, strip } from './event-store-fixtures';
import type { EventStoreCapabilities, EventStoreContractContext } from './event-store.contract';

/**
 * Registers the append suite of the event store contract for adapter `name` with its
 * `capabilities`; `factory` is called before each test and its `cleanup` after it.
 */
export function describeEventStoreAppendsContract(
  name: string,
  factory: () => Promise<EventStoreContractContext>,
  capabilities: EventStoreCapabilities,
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

      it('reads at most maxCount events of a stream from a revision (a page of a long stream)', async () => {
        const stream = `${run}trainee-page`;
        await store.appendToStream(
          stream,
          ['A', 'B', 'C', 'D', 'E'].map((t) => event(t, {})),
        );

        const page = (fromRevision: number, maxCount: number) =>
          store.readStream(stream, { fromRevision, maxCount }).then((events) => events.map((e) => [e.type, e.streamRevision]));
        expect(await page(1, 2)).toEqual([
          ['B', 1],
          ['C', 2],
        ]);
        expect(await page(3, 10)).toEqual([
          ['D', 3],
          ['E', 4],
        ]);
        expect(await page(0, 1)).toEqual([['A', 0]]);
        expect(await page(5, 3)).toEqual([]);
        await expect(store.readStream(stream, { maxCount: 0 })).rejects.toThrow(RangeError);
        await expect(store.readStream(stream, { maxCount: 2.5 })).rejects.toThrow(RangeError);
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
  });
}
