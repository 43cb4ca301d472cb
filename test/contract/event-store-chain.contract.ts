/**
 * The event store contract's suite of the hash chain (test/contract/event-store.contract.ts): every
 * appended event's metadata ends with the hash of the stream's previous event and its own hash,
 * computed from its stored form, whatever the caller put in its metadata. Source: docs/DESIGN.md
 * "Verifiable history".
 */
import { randomUUID } from 'node:crypto';
import { CHAIN_VERSION, readChainKeys, storedTextOf, type EventStore, type RecordedEvent, checkStreamChain } from '@app/event-sourcing';
import { event } from './event-store-fixtures';
import type { EventStoreCapabilities, EventStoreContractContext } from './event-store.contract';

/**
 * The events as stored texts: the adapters store data and metadata as `JSON.stringify` writes
 * them, and JSON read back and written again gives the same text.
 */
function storedTexts(events: RecordedEvent[]) {
  return events.map(storedTextOf);
}

/** The stored hash and previous hash of each event, in order. */
function links(events: RecordedEvent[]): Array<[string | null, string | null | undefined]> {
  return events.map((e) => {
    const keys = readChainKeys(JSON.stringify(e.metadata));
    return [keys.hash, keys.previousHash];
  });
}

/** Registers the hash chain suite of the event store contract for adapter `name`. */
export function describeEventStoreChainContract(
  name: string,
  factory: () => Promise<EventStoreContractContext>,
  capabilities: EventStoreCapabilities,
): void {
  describe(`EventStore contract (hash chain): ${name}`, () => {
    let ctx: EventStoreContractContext;
    let store: EventStore;
    let run: string;

    beforeEach(async () => {
      ctx = await factory();
      store = ctx.store;
      run = `ch${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    });

    afterEach(async () => {
      await ctx.cleanup();
    });

    it('chains each event to the one before it, across appends, from null at revision 0', async () => {
      const stream = `${run}trainee-1`;
      await store.appendToStream(stream, [event('A', { n: 1 }), event('B', { text: 'Zoë "quoted"\n' })], { expectedRevision: 'no_stream' });
      await store.appendToStream(stream, [event('C', { n: 3 })], { expectedRevision: 1 });
      const read = await store.readStream(stream);

      const chain = links(read);
      expect(chain.every(([hash]) => typeof hash === 'string' && /^[0-9a-f]{64}$/.test(hash))).toBe(true);
      expect(chain.map(([, previous]) => previous)).toEqual([null, chain[0][0], chain[1][0]]);
      expect(new Set(chain.map(([hash]) => hash)).size).toBe(3);
      expect(checkStreamChain(storedTexts(read))).toEqual({ faults: [], headHash: chain[2][0] });
    });

    it('keeps a chain per stream: interleaved appends to two streams chain within each', async () => {
      for (let i = 0; i < 3; i++) {
        await store.appendToStream(`${run}trainee-a`, [event('A', { i })]);
        await store.appendToStream(`${run}trainee-b`, [event('B', { i })]);
      }
      for (const stream of [`${run}trainee-a`, `${run}trainee-b`]) {
        const read = await store.readStream(stream);
        expect(links(read)[0][1]).toBeNull();
        expect(checkStreamChain(storedTexts(read)).faults).toEqual([]);
      }
    });

    it("replaces chain keys a caller passes by the store's own", async () => {
      const stream = `${run}trainee-1`;
      const forged = event('A', { n: 1 });
      forged.metadata = { ...forged.metadata, previousHash: 'f'.repeat(64), hash: 'e'.repeat(64) };
      await store.appendToStream(stream, [forged]);
      const [read] = await store.readStream(stream);

      const [hash, previous] = links([read])[0];
      expect(previous).toBeNull();
      expect(hash).not.toBe('e'.repeat(64));
      expect(checkStreamChain(storedTexts([read])).faults).toEqual([]);
    });

    it('finds a changed event: the chain covers data, type and metadata as stored', async () => {
      const stream = `${run}trainee-1`;
      await store.appendToStream(stream, [event('A', { n: 1 }), event('B', { n: 2 })]);
      const read = storedTexts(await store.readStream(stream));

      const changed = [read[0], { ...read[1], data: read[1].data.replace('2', '3') }];
      expect(checkStreamChain(changed).faults).toEqual([expect.objectContaining({ streamId: stream, revision: 1, kind: 'altered' })]);
    });

    it('chains by the current rule, which covers the event id and the time the writer set', async () => {
      const stream = `${run}trainee-1`;
      await store.appendToStream(stream, [event('A', { n: 1 }), event('B', { n: 2 })]);
      const read = storedTexts(await store.readStream(stream));
      expect(read.map((e) => readChainKeys(e.metadata).version)).toEqual([CHAIN_VERSION, CHAIN_VERSION]);

      const otherId = [read[0], { ...read[1], id: randomUUID() }];
      expect(checkStreamChain(otherId).faults).toEqual([expect.objectContaining({ streamId: stream, revision: 1, kind: 'altered' })]);
      const at = JSON.parse(read[1].metadata).occurredAt as string;
      const otherTime = [read[0], { ...read[1], metadata: read[1].metadata.replace(at, '2020-01-01T00:00:00.000Z') }];
      expect(checkStreamChain(otherTime).faults).toEqual([expect.objectContaining({ streamId: stream, revision: 1, kind: 'altered' })]);
    });

    if (capabilities.atomicMultiStreamAppend) {
      it('chains the streams of one multi-stream append, each to its own head', async () => {
        await store.appendToStream(`${run}trainee-a`, [event('A', { n: 0 })]);
        await store.appendToStreams!([
          { streamId: `${run}trainee-a`, events: [event('A', { n: 1 })], options: { expectedRevision: 0 } },
          { streamId: `${run}trainee-b`, events: [event('B', { n: 1 }), event('B', { n: 2 })], options: { expectedRevision: 'no_stream' } },
        ]);
        for (const stream of [`${run}trainee-a`, `${run}trainee-b`]) {
          expect(checkStreamChain(storedTexts(await store.readStream(stream))).faults).toEqual([]);
        }
      });
    }
  });
}
