/**
 * The client stand-in behaves as client-stand-in.ts says it models `@eventstore/db-client` 6.2.1,
 * where the EventStoreDB adapter depends on it.
 */
import {
  jsonEvent,
  MaxAppendSizeExceededError,
  StreamDeletedError,
  streamNameFilter,
  StreamNotFoundError,
  UnavailableError,
  UnknownError,
  type Position,
  type StreamingRead,
} from '@eventstore/db-client';
import { randomUUID } from 'node:crypto';
import { EventStoreDbClientStandIn } from './client-stand-in';

const event = (type = 'Happened') => jsonEvent({ id: randomUUID(), type, data: { a: 1 }, metadata: { b: 2 } });

async function collect<T>(read: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of read) items.push(item);
  return items;
}

describe('EventStoreDB client stand-in', () => {
  it('gives records sparse commit/prepare positions, commit = prepare, never consecutive', async () => {
    const client = new EventStoreDbClientStandIn();
    await client.appendToStream('s-1', [event(), event()]);
    await client.appendToStream('s-2', [event()]);
    const positions = client.recordPositions();
    expect(positions).toHaveLength(4); // the system record the log starts with, then three events
    for (const p of positions) expect(p.prepare).toBe(p.commit);
    for (let i = 1; i < positions.length; i++) expect(positions[i].commit - positions[i - 1].commit).toBeGreaterThan(1n);
  });

  it('refuses, while iterating, a read of $all from a position at which no record starts', async () => {
    const client = new EventStoreDbClientStandIn();
    await client.appendToStream('s-1', [event(), event()]);
    const [, second] = client.recordPositions();
    const inside = { commit: second.commit + 1n, prepare: second.commit + 1n };
    const read = client.readAll({ fromPosition: inside, direction: 'forwards' });
    await expect(collect(read)).rejects.toBeInstanceOf(UnknownError);
    const from = await collect(client.readAll({ fromPosition: second, direction: 'forwards' }));
    expect(from.map((r) => (r.event as { position: unknown }).position)).toEqual(client.recordPositions().slice(1));
  });

  it('raises StreamNotFoundError while a read of a missing stream is iterated, not when it is made', async () => {
    const client = new EventStoreDbClientStandIn();
    const read = client.readStream('missing');
    await expect(collect(read)).rejects.toBeInstanceOf(StreamNotFoundError);
  });

  it('holds the first append back for the server features call, while a read made after it goes out at once', async () => {
    const client = new EventStoreDbClientStandIn({ serverFeaturesDelayMs: 20 });
    const append = client.appendToStream('s-1', [event()]);
    await expect(collect(client.readStream('s-1'))).rejects.toBeInstanceOf(StreamNotFoundError);
    await append;
    expect(await collect(client.readStream('s-1'))).toHaveLength(1);
  });

  it('keeps a destroyed read’s call open until it is cancelled', async () => {
    const client = new EventStoreDbClientStandIn();
    const release = client.holdReads();
    const read = client.readStream('s-1') as unknown as StreamingRead<unknown>;
    read.destroy();
    expect(client.openCalls).toBe(1);
    await read.cancel();
    expect(client.openCalls).toBe(0);
    release();
  });

  it('refuses a 1.1 MiB append whole, before its expectation, as MaxAppendSizeExceededError; takes one of exactly 1 MiB', async () => {
    const client = new EventStoreDbClientStandIn();
    // data {"text":"…"} is 11 bytes more than the text; a type of 8 characters counts 16.
    const sized = (bytes: number) => jsonEvent({ id: randomUUID(), type: 'Happened', data: { text: 'x'.repeat(bytes - 11 - 16) } });
    const refused = await client.appendToStream('s-1', [event(), sized(1_153_434)], { expectedRevision: 5n }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(MaxAppendSizeExceededError);
    expect(refused).toMatchObject({ maxAppendSize: 1_048_576 });
    await expect(collect(client.readStream('s-1'))).rejects.toBeInstanceOf(StreamNotFoundError);
    await client.appendToStream('s-1', [sized(1_048_576)]);
    await expect(client.appendToStream('s-1', [sized(1_048_577)])).rejects.toBeInstanceOf(MaxAppendSizeExceededError);
    expect(await collect(client.readStream('s-1'))).toHaveLength(1);
  });

  it('keeps a failed server features call for the life of the client: every append fails; another client is not affected', async () => {
    const client = new EventStoreDbClientStandIn();
    const failure = new Error('13 INTERNAL');
    client.failServerFeatures(failure);
    await expect(client.appendToStream('s-1', [event()])).rejects.toBe(failure);
    await expect(client.appendToStream('s-1', [event()])).rejects.toBe(failure);
    expect(await collect(client.readAll())).toHaveLength(1); // reads stay well: the system record
    await client.anotherClient().appendToStream('s-1', [event()]);
    expect(await collect(client.readStream('s-1'))).toHaveLength(1);
  });

  it('sends a filtered catch-up {commit: X, prepare: 0} checkpoints, and starts at the record at X from one', async () => {
    const client = new EventStoreDbClientStandIn();
    await client.appendToStream(
      's-1',
      Array.from({ length: 70 }, () => event()),
    );
    await client.appendToStream('t-1', [event()]);
    const checkpoints: Position[] = [];
    const filter = streamNameFilter({ prefixes: ['t-'], checkpointInterval: 1, checkpointReached: (_, p) => void checkpoints.push(p) });
    const first = client.subscribeToAll({ filter });
    const [delivered] = await firstItems(first, 1);
    const positions = client.recordPositions();
    // 72 records in pages of 32: a checkpoint after each whole page, at its start, and one at the end, at the last event sent.
    expect(checkpoints).toEqual([{ commit: 0n, prepare: 0n }, { commit: positions[32].commit, prepare: 0n }, positions[71]]);
    expect((delivered as { event: { position: Position } }).event.position).toEqual(positions[71]);
    await first.unsubscribe();

    const t = positions[71];
    const [again] = await firstItems(client.subscribeToAll({ fromPosition: { commit: t.commit, prepare: 0n } }), 1);
    expect((again as { event: { position: Position } }).event.position).toEqual(t);
    const after = client.subscribeToAll({ fromPosition: positions[70] });
    expect(await firstItems(after, 1)).toEqual([again]);
  });

  it('starts the log with systemRecordsAtStart records in $-streams, and appends one $epoch-information record per election', async () => {
    const client = new EventStoreDbClientStandIn({ systemRecordsAtStart: 3 });
    await client.appendToStream('s-1', [event()]);
    const elected = client.electLeader();
    const records = (await collect(client.readAll())).map((r) => r.event as { streamId: string; type: string; position: Position });
    expect(records.map((r) => [r.streamId, r.type])).toEqual([
      ['$epoch-information', '$epoch-information'],
      ['$projections-$all', '$ProjectionsInitialized'],
      ['$stats-127.0.0.1:2113', '$statsCollected'],
      ['s-1', 'Happened'],
      ['$epoch-information', '$epoch-information'],
    ]);
    expect(records[4].position).toEqual(elected);
  });

  it('refuses reads of and appends to a tombstoned stream with StreamDeletedError; $all holds its tombstone', async () => {
    const client = new EventStoreDbClientStandIn();
    await client.appendToStream('s-1', [event()]);
    const { position } = await client.tombstoneStream('s-1');
    await expect(collect(client.readStream('s-1'))).rejects.toBeInstanceOf(StreamDeletedError);
    await expect(collect(client.readStream('s-1', { direction: 'backwards', fromRevision: 'end' }))).rejects.toBeInstanceOf(
      StreamDeletedError,
    );
    await expect(client.appendToStream('s-1', [event()], { expectedRevision: 'any' })).rejects.toBeInstanceOf(StreamDeletedError);
    const [last] = await collect(client.readAll({ direction: 'backwards', fromPosition: 'end', maxCount: 1 }));
    expect(last.event).toMatchObject({ streamId: 's-1', type: '$streamDeleted', revision: 2n ** 63n - 1n, isJson: false, position });
  });

  it('fails every append in flight, of every client, when the batch-append call fails; those it wrote stay written', async () => {
    const client = new EventStoreDbClientStandIn();
    const other = client.anotherClient();
    await client.appendToStream('s-0', [event()]);
    await other.appendToStream('s-0', [event()]);
    const release = client.holdAppends();
    const sent = [client.appendToStream('s-1', [event()]), other.appendToStream('s-2', [event()])].map((p) => p.catch((e: unknown) => e));
    while (client.appendsInFlight < 2) await new Promise((resolve) => setImmediate(resolve));
    const failure = new UnavailableError();
    client.failBatchAppend(failure, 1);
    release();
    expect(await Promise.all(sent)).toEqual([failure, failure]);
    expect(await collect(client.readStream('s-1'))).toHaveLength(1);
    await expect(collect(client.readStream('s-2'))).rejects.toBeInstanceOf(StreamNotFoundError);
  });
});

/** The first `count` items of a subscription, which is then cancelled. */
async function firstItems(subscription: AsyncIterable<unknown> & { unsubscribe(): Promise<void> }, count: number): Promise<unknown[]> {
  const items: unknown[] = [];
  for await (const item of subscription) {
    items.push(item);
    if (items.length === count) break;
  }
  await subscription.unsubscribe();
  return items;
}
