/**
 * The event store contract's suite of subscriptions (test/contract/event-store.contract.ts):
 * `subscribeToAll`, catching up and then live, filtered, from another client. Source:
 * docs/DESIGN.md, "The event store port" and the port's docs.
 */
import { randomUUID } from 'node:crypto';
import type { EventData, EventStore, RecordedEvent } from '@app/event-sourcing';
import { appendMany, event, expectStrictlyIncreasing, settleFor, take, withLimit } from './event-store-fixtures';
import type { EventStoreContractContext } from './event-store.contract';

/**
 * Registers the subscription suite of the event store contract for adapter `name`; `factory` is
 * called before each test and its `cleanup` after it.
 */
export function describeEventStoreSubscriptionsContract(name: string, factory: () => Promise<EventStoreContractContext>): void {
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
