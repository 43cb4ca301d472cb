/**
 * The event store contract's suite of reads across streams (test/contract/event-store.contract.ts):
 * `readStreamsByPrefix` where the store has it, `readAll` and `headPosition`. Source:
 * docs/DESIGN.md, "The event store port" and the port's docs.
 */
import { randomUUID } from 'node:crypto';
import type { EventStore, LogPosition, RecordedEvent } from '@app/event-sourcing';
import { event, expectStrictlyIncreasing } from './event-store-fixtures';
import type { EventStoreCapabilities, EventStoreContractContext } from './event-store.contract';

/**
 * Registers the read suite of the event store contract for adapter `name` with its
 * `capabilities`; `factory` is called before each test and its `cleanup` after it.
 */
export function describeEventStoreReadsContract(
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
        const read = (afterStream: string | null, maxCount: number, toPosition: LogPosition = snapshot) =>
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
        // A cursor below the prefix (an earlier category) reads from the prefix's first stream.
        expect(types(await read(`${run}trainee`, 100))).toEqual(['A0', 'A1', 'B0', 'B1', 'B2']);
        expect(types(await read(`${prefix}b`, 10, await store.headPosition()))).toEqual(['C0']);
        await expect(read(null, 0)).rejects.toThrow(RangeError);
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
  });
}
