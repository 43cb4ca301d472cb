import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { chainHash, logPosition, newEventId, readChainKeys, type EventData, type EventStore, type ChainFault } from '@app/event-sourcing';
import { VERSION_1_HEAD, VERSION_1_STREAM, VERSION_1_STREAM_ID } from '@app/event-sourcing/testing/version-1-stream';
import { openSqliteEventStore, verifyInThreads, type SqliteEventStore } from '@app/stores/sqlite';
import type { HashedHead } from './digest';
import { verifyLog } from './verify-log';

const event = (n: number): EventData => ({
  id: newEventId(),
  type: 'Counted',
  data: { n },
  metadata: { schemaVersion: 1, occurredAt: '2026-11-26T10:00:00.000Z' },
});

/** The store as another adapter would be: no `readStoredStreams`, so the check reads it through readAll and readStream. */
function withoutStoredStreams(store: EventStore): EventStore {
  return Object.assign(Object.create(store) as EventStore, { readStoredStreams: undefined });
}

/** Events read per store call here, and the long stream's length: it spans batches. */
const BATCH = 50;
const LONG = 130;
/** The log's head: 3 streams of 6, then the long one. */
const HEAD = logPosition(18 + LONG);

async function run(store: EventStore, options: Parameters<typeof verifyLog>[1] = {}) {
  const faults: ChainFault[] = [];
  const heads: HashedHead[] = [];
  const totals = await verifyLog(store, { batchEvents: BATCH, ...options, onFault: (f) => faults.push(f), onStream: (h) => heads.push(h) });
  return { totals, faults, heads };
}

describe('verifyLog', () => {
  let dir: string;
  let store: SqliteEventStore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'verify-log-'));
    store = openSqliteEventStore(dir);
    // 3 streams, interleaved, then one long enough to span the check's batches.
    for (let i = 0; i < 6; i++) for (const s of ['b', 'a', 'c']) await store.appendToStream(`counter-${s}`, [event(i)]);
    await store.appendToStream(
      'counter-long',
      Array.from({ length: LONG }, (_, i) => event(i)),
    );
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('checks every stream whole, in stream-id order, the same through readStoredStreams as through the port', async () => {
    const direct = await run(store);
    const generic = await run(withoutStoredStreams(store));
    expect(direct.totals).toEqual({ events: HEAD, streams: 4, faults: 0 });
    expect(generic.totals).toEqual(direct.totals);
    expect(direct.heads.map((h) => [h.streamId, h.revision])).toEqual([
      ['counter-a', 5],
      ['counter-b', 5],
      ['counter-c', 5],
      ['counter-long', LONG - 1],
    ]);
    expect(generic.heads).toEqual(direct.heads);
  });

  it('names a changed event either way, and reads each stream as it stood at a position', async () => {
    const raw = new Database(join(dir, 'events.sqlite'));
    raw.exec('DROP TRIGGER events_no_update');
    raw.prepare("UPDATE events SET data = '{\"n\":7}' WHERE stream_id = 'counter-long' AND revision = 120").run();
    raw.close();
    for (const s of [store, withoutStoredStreams(store)]) {
      expect((await run(s)).faults).toEqual([expect.objectContaining({ streamId: 'counter-long', revision: 120, kind: 'altered' })]);
    }
    const asOf = await run(store, { toPosition: logPosition(9) });
    expect(asOf.totals).toEqual({ events: 9, streams: 3, faults: 0 });
    expect(asOf.heads.map((h) => [h.streamId, h.revision])).toEqual([
      ['counter-a', 2],
      ['counter-b', 2],
      ['counter-c', 2],
    ]);
  });

  it('finds the same on two threads over halves of the positions (verifyInThreads), in the same order', async () => {
    const raw = new Database(join(dir, 'events.sqlite'));
    raw.exec('DROP TRIGGER events_no_update');
    raw.prepare("UPDATE events SET data = '{\"n\":9}' WHERE stream_id IN ('counter-a', 'counter-long') AND revision = 3").run();
    raw.close();
    const one = await run(store);
    const faults: ChainFault[] = [];
    const heads: HashedHead[] = [];
    const totals = await verifyInThreads(dir, { onFault: (f) => faults.push(f), onStream: (h) => heads.push(h) });
    expect(one.faults.map((f) => [f.streamId, f.revision, f.kind])).toEqual([
      ['counter-a', 3, 'altered'],
      ['counter-long', 3, 'altered'],
    ]);
    expect({ totals, faults, heads }).toEqual(one);
  });

  it.each([
    [
      'a swap of two revisions',
      "UPDATE events SET revision = revision + 1000000 WHERE stream_id = 'counter-b' AND revision IN (2, 3); UPDATE events SET revision = 5 - (revision - 1000000) WHERE stream_id = 'counter-b' AND revision > 999999",
    ],
    ["a deleted event at the halves' border", `DELETE FROM events WHERE position = ${HEAD / 2}`],
    [
      'a changed event of a stream that spans both halves',
      `UPDATE events SET data = replace(data, '"n":100', '"n":1000') WHERE stream_id = 'counter-long' AND revision = 100`,
    ],
    [
      'a stream begun anew in the second half',
      "UPDATE events SET stream_id = 'counter-z' WHERE stream_id = 'counter-long' AND revision >= 60",
    ],
  ])('finds on two threads what one finds of %s, in the same order', async (_, change) => {
    const raw = new Database(join(dir, 'events.sqlite'));
    raw.exec('DROP TRIGGER events_no_update; DROP TRIGGER events_no_delete;');
    raw.exec(change);
    raw.close();
    const one = await run(store);
    expect(one.faults.length).toBeGreaterThan(0);
    const faults: ChainFault[] = [];
    const heads: HashedHead[] = [];
    const totals = await verifyInThreads(dir, { onFault: (f) => faults.push(f), onStream: (h) => heads.push(h) });
    expect({ totals, faults, heads }).toEqual(one);
  });

  it('verifies a stream chained by version 1 (literal rows of then) and appended to by version 2, never the reverse, on one thread or two', async () => {
    const raw = new Database(join(dir, 'events.sqlite'));
    const insert = raw.prepare(
      "INSERT INTO events (id, stream_id, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, '2026-01-05T10:00:00.000Z')",
    );
    for (const e of VERSION_1_STREAM) insert.run(e.id, e.streamId, e.revision, e.type, e.data, e.metadata);
    raw.close();
    // The store chains onto the version 1 head it reads and checks.
    await store.appendToStream(VERSION_1_STREAM_ID, [event(3), event(4)], { expectedRevision: 2 });
    const stored = await store.readStoredStream!(VERSION_1_STREAM_ID);
    expect(stored.map((e) => readChainKeys(e.metadata).version)).toEqual([1, 1, 1, 2, 2]);
    expect(readChainKeys(stored[3].metadata).previousHash).toBe(VERSION_1_HEAD);
    const one = await run(store);
    expect(one.totals).toEqual({ events: HEAD + 5, streams: 5, faults: 0 });
    expect(await run(withoutStoredStreams(store))).toEqual(one);
    const threaded = { faults: [] as ChainFault[], heads: [] as HashedHead[] };
    const totals = await verifyInThreads(dir, { onFault: (f) => threaded.faults.push(f), onStream: (h) => threaded.heads.push(h) });
    expect({ totals, ...threaded }).toEqual(one);

    // A version 1 event after them, its hash and link made by that rule: altered all the same.
    const head = stored[4];
    const hashed = `{"schemaVersion":1,"occurredAt":"2026-11-26T10:00:00.000Z","previousHash":"${readChainKeys(head.metadata).hash}"}`;
    const hash = chainHash(readChainKeys(head.metadata).hash, VERSION_1_STREAM_ID, 5, 'Counted', '{"n":5}', hashed);
    const again = new Database(join(dir, 'events.sqlite'));
    again
      .prepare("INSERT INTO events (id, stream_id, revision, type, data, metadata, recorded_at) VALUES (?, ?, 5, 'Counted', ?, ?, 'now')")
      .run(newEventId(), VERSION_1_STREAM_ID, '{"n":5}', `${hashed.slice(0, -1)},"hash":"${hash}"}`);
    again.close();
    const older = await run(store);
    expect(older.faults).toEqual([expect.objectContaining({ streamId: VERSION_1_STREAM_ID, revision: 5, kind: 'altered' })]);
    const threadedOlder = { faults: [] as ChainFault[], heads: [] as HashedHead[] };
    const olderTotals = await verifyInThreads(dir, {
      onFault: (f) => threadedOlder.faults.push(f),
      onStream: (h) => threadedOlder.heads.push(h),
    });
    expect({ totals: olderTotals, ...threadedOlder }).toEqual(older);
  });

  it('holds the log to a digest on two threads as on one: an event put in with every later hash computed afresh', async () => {
    const { heads } = await run(store);
    const signed = new Map(heads.map((h) => [h.streamId, { revision: h.revision, hash: h.hash }]));
    signed.set('counter-gone', { revision: 1, hash: 'f'.repeat(64) });
    // After the digest: counter-a's revisions 2 to 5 taken out and appended again, rechained, after a forged one.
    const raw = new Database(join(dir, 'events.sqlite'));
    raw.exec('DROP TRIGGER events_no_update; DROP TRIGGER events_no_delete;');
    raw.exec("DELETE FROM events WHERE stream_id = 'counter-a' AND revision >= 2");
    raw.close();
    await store.appendToStream('counter-a', [event(99), event(2), event(3), event(4), event(5)]);
    const digest = { position: HEAD, heads: signed };
    const one = await run(store, { digest });
    expect(one.faults.map((f) => [f.streamId, f.revision, f.kind])).toContainEqual(['counter-a', 2, 'inserted']);
    const faults: ChainFault[] = [];
    const threadedHeads: HashedHead[] = [];
    const totals = await verifyInThreads(dir, { digest, onFault: (f) => faults.push(f), onStream: (h) => threadedHeads.push(h) });
    expect({ totals, faults, heads: threadedHeads }).toEqual(one);
  });

  it('holds the log to a digest: a stream the digest holds and the log lost is missing whole', async () => {
    const { heads } = await run(store);
    const signed = new Map(heads.map((h) => [h.streamId, { revision: h.revision, hash: h.hash }]));
    signed.set('counter-gone', { revision: 1, hash: 'f'.repeat(64) });
    const { faults } = await run(store, { digest: { position: HEAD, heads: signed } });
    expect(faults.map((f) => [f.streamId, f.revision, f.kind])).toEqual([
      ['counter-gone', 0, 'missing'],
      ['counter-gone', 1, 'missing'],
    ]);
  });
});
