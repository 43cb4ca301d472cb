/**
 * What the SQLite adapter promises beyond the shared contract (test/contract/event-store.contract.ts):
 * its schema, positions from 1 without gaps, durability across reopen, wake-up and polling of live
 * subscriptions, input checks. Source: docs/DESIGN.md "The event store port".
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import {
  EventData,
  IdempotencyConflictError,
  logPosition,
  readChainKeys,
  RecordedEvent,
  streamHeadOf,
  withoutChainKeys,
  WrongExpectedVersionError,
  StreamChainBrokenError,
  type ChainLink,
  type StoredEventText,
  checkStreamChain,
  chainEvent,
} from '@app/event-sourcing';
import { openSqliteEventStore, SqliteEventStore } from './sqlite-event-store';
import { metadataText, packMetadata } from './packed-metadata';
import { eventIdText, packEventId } from './packed-ids';
import { SCHEMA_SQL } from './schema';

const HOUR_MS = 3_600_000;

function event(type: string, data: unknown = {}): EventData {
  return { id: randomUUID(), type, data, metadata: { schemaVersion: 1, occurredAt: '2026-01-05T10:00:00.000Z' } };
}

/** The rows of `events` as stored texts (id and metadata unpacked), in revision order. */
function storedTexts(db: Database.Database, where = '1'): StoredEventText[] {
  const rows = db
    .prepare(`SELECT stream_id AS streamId, revision, id, type, data, metadata FROM events WHERE ${where} ORDER BY revision`)
    .all() as Array<StoredEventText & { id: string | Buffer; metadata: string | Buffer }>;
  return rows.map((r) => ({ ...r, id: eventIdText(r.id), metadata: metadataText(r.metadata) }));
}

/** The next `count` events, or a failure after 10 s instead of a hung test (not a timing assertion). */
async function take(iterator: AsyncIterator<RecordedEvent>, count: number): Promise<RecordedEvent[]> {
  const received: RecordedEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`received only ${received.length} of ${count} events`)), 10_000);
  });
  const collect = (async () => {
    while (received.length < count) {
      const next = await iterator.next();
      if (next.done) throw new Error(`subscription ended after ${received.length} of ${count} events`);
      received.push(next.value);
    }
    return received;
  })();
  try {
    return await Promise.race([collect, limit]);
  } finally {
    clearTimeout(timer);
  }
}

describe('SqliteEventStore', () => {
  let dataDir: string;
  const toClose: Array<{ close(): unknown }> = [];

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-event-store-'));
  });

  afterEach(async () => {
    for (const c of toClose.splice(0)) await c.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  function open(options: { pollIntervalMs?: number } = {}): SqliteEventStore {
    const store = openSqliteEventStore(dataDir, options);
    toClose.push(store);
    return store;
  }

  function rawConnection(): Database.Database {
    const db = new Database(path.join(dataDir, 'events.sqlite'));
    toClose.push(db);
    return db;
  }

  describe('storage', () => {
    it('openSqliteEventStore creates the data directory and <dataDir>/events.sqlite', async () => {
      const nested = path.join(dataDir, 'a', 'b');
      const store = openSqliteEventStore(nested);
      toClose.push(store);
      expect(fs.existsSync(path.join(nested, 'events.sqlite'))).toBe(true);
    });

    it('has one append-only events table with the declared columns, WAL mode and unique keys', async () => {
      const store = open();
      await store.appendToStream('trainee-1', [event('A')]);
      const db = rawConnection();

      const columns = db.prepare('PRAGMA table_info(events)').all() as Array<{ name: string; pk: number }>;
      expect(columns.map((c) => c.name)).toEqual(['position', 'id', 'stream_id', 'revision', 'type', 'data', 'metadata', 'recorded_at']);
      expect(columns.find((c) => c.pk === 1)?.name).toBe('position');
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');

      const insert = db.prepare(
        "INSERT INTO events (id, stream_id, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, 'T', '{}', '{}', 'now')",
      );
      expect(() => insert.run(randomUUID(), 'trainee-1', 0)).toThrow(/UNIQUE/);
      const [stored] = await store.readStream('trainee-1');
      expect(() => insert.run(packEventId(stored.id), 'trainee-2', 0)).toThrow(/UNIQUE/);
      expect(() => db.prepare("UPDATE events SET type = 'B'").run()).toThrow(/append-only/);
      expect(() => db.prepare('DELETE FROM events').run()).toThrow(/append-only/);
    });

    it('refuses to append after a head whose stored form no longer makes its hash, naming the stream only', async () => {
      const store = open();
      await store.appendToStream('trainee-1', [event('A'), event('B', { note: 'B' })], { expectedRevision: 'no_stream' });
      const db = new Database(path.join(dataDir, 'events.sqlite'));
      db.exec('DROP TRIGGER events_no_update');
      db.prepare(`UPDATE events SET data = replace(data, '"B"', '"b"') WHERE stream_id = 'trainee-1' AND revision = 1`).run();
      db.close();
      const head = (await store.readStream('trainee-1')).at(-1)!;
      for (const expectedRevision of [1, streamHeadOf(head)] as const) {
        const refused = store.appendToStream('trainee-1', [event('C')], { expectedRevision });
        await expect(refused).rejects.toBeInstanceOf(StreamChainBrokenError);
        await expect(refused).rejects.toThrow('the stored chain of trainee-1 breaks at revision 1: the write is refused');
      }
      expect((await store.readStream('trainee-1')).map((e) => e.type)).toEqual(['A', 'B']);
      // Another stream is written as usual.
      await expect(store.appendToStream('trainee-2', [event('A')], { expectedRevision: 'no_stream' })).resolves.toMatchObject({
        nextExpectedRevision: 0,
      });
    });

    it('refuses to append to a stream whose first event was altered under later ones, after checking it before', async () => {
      const store = open();
      await store.appendToStream('trainee-1', [event('A', { note: 'A' }), event('B')], { expectedRevision: 'no_stream' });
      // Checked and written by this connection: the head it keeps must not let a later alteration pass.
      await store.appendToStream('trainee-1', [event('C')], { expectedRevision: 1 });
      const db = new Database(path.join(dataDir, 'events.sqlite'));
      db.exec('DROP TRIGGER events_no_update');
      db.prepare(`UPDATE events SET data = replace(data, '"A"', '"a"') WHERE stream_id = 'trainee-1' AND revision = 0`).run();
      db.close();
      for (const expectedRevision of [2, 'any', 'stream_exists'] as const) {
        await expect(store.appendToStream('trainee-1', [event('D')], { expectedRevision })).rejects.toThrow(
          new StreamChainBrokenError('trainee-1', 0),
        );
      }
      await expect(store.appendToStreams([{ streamId: 'trainee-1', events: [event('D')] }])).rejects.toBeInstanceOf(StreamChainBrokenError);
      expect((await store.readStream('trainee-1')).map((e) => e.type)).toEqual(['A', 'B', 'C']);
    });

    it('refuses to append after an event whose chain keys were taken away, following chained events', async () => {
      const store = open();
      await store.appendToStream('trainee-1', [event('A'), event('B'), event('C')], { expectedRevision: 'no_stream' });
      const db = new Database(path.join(dataDir, 'events.sqlite'));
      db.exec('DROP TRIGGER events_no_update');
      const [row] = storedTexts(db, `stream_id = 'trainee-1' AND revision = 1`);
      const stripped = JSON.stringify(withoutChainKeys(JSON.parse(row.metadata) as Record<string, unknown>));
      db.prepare(`UPDATE events SET metadata = ? WHERE stream_id = 'trainee-1' AND revision = 1`).run(packMetadata(stripped));
      db.close();
      await expect(store.appendToStream('trainee-1', [event('D')], { expectedRevision: 2 })).rejects.toThrow(
        new StreamChainBrokenError('trainee-1', 1),
      );
      // Taken from the head too: the stream is still refused, not chained again from a hash computed afresh.
      const again = new Database(path.join(dataDir, 'events.sqlite'));
      const [head] = storedTexts(again, `stream_id = 'trainee-1' AND revision = 2`);
      again
        .prepare(`UPDATE events SET metadata = ? WHERE stream_id = 'trainee-1' AND revision = 2`)
        .run(JSON.stringify(withoutChainKeys(JSON.parse(head.metadata) as Record<string, unknown>)));
      again.close();
      await expect(store.appendToStream('trainee-1', [event('D')], { expectedRevision: 2 })).rejects.toBeInstanceOf(StreamChainBrokenError);
      expect(await store.readStream('trainee-1')).toHaveLength(3);
    });

    it('refuses to append after a revision taken out of the middle of a stream', async () => {
      const store = open();
      await store.appendToStream('trainee-1', [event('A'), event('B'), event('C')], { expectedRevision: 'no_stream' });
      const db = new Database(path.join(dataDir, 'events.sqlite'));
      db.exec('DROP TRIGGER events_no_delete');
      db.prepare(`DELETE FROM events WHERE stream_id = 'trainee-1' AND revision = 1`).run();
      db.close();
      await expect(store.appendToStream('trainee-1', [event('D')], { expectedRevision: 2 })).rejects.toThrow(
        new StreamChainBrokenError('trainee-1', 2),
      );
    });

    it('chains an append to the stored head, not to the events of an append that rolled back', async () => {
      const store = open();
      await store.appendToStream('trainee-1', [event('A')], { expectedRevision: 'no_stream' });
      const refused = store.appendToStreams([
        { streamId: 'trainee-1', events: [event('B')], options: { expectedRevision: 0 } },
        { streamId: 'trainee-2', events: [event('X')], options: { expectedRevision: 5 } },
      ]);
      await expect(refused).rejects.toBeInstanceOf(WrongExpectedVersionError);
      await store.appendToStream('trainee-1', [event('C')], { expectedRevision: 0 });
      await store.appendToStream('trainee-1', [event('D')], { expectedRevision: 1 });
      const rows = storedTexts(rawConnection(), `stream_id = 'trainee-1'`);
      expect(rows.map((r) => r.type)).toEqual(['A', 'C', 'D']);
      expect(checkStreamChain(rows).faults).toEqual([]);
    });

    it('numbers positions from 1 without gaps, also after rejected appends', async () => {
      const store = open();
      expect(await store.headPosition()).toBe(0);
      await store.appendToStream('trainee-1', [event('A'), event('B')], { expectedRevision: 'no_stream' });
      await expect(store.appendToStream('trainee-1', [event('X')], { expectedRevision: 'no_stream' })).rejects.toThrow();
      await store.appendToStream('trainee-2', [event('C')]);
      await store.appendToStream('trainee-1', [event('D')], { expectedRevision: 1 });

      const all = await store.readAll();
      expect(all.map((e) => e.position)).toEqual([1, 2, 3, 4]);
      expect(all.map((e) => e.type)).toEqual(['A', 'B', 'C', 'D']);
      expect(await store.headPosition()).toBe(4);
    });

    it('keeps events across close and reopen', async () => {
      const first = open();
      const written = event('TraineeCreated', { first_names: 'Ann' });
      await first.appendToStream('trainee-1', [written]);
      await first.close();

      const reopened = open();
      const [read] = await reopened.readStream('trainee-1');
      expect({ ...read, metadata: withoutChainKeys(read.metadata) }).toEqual({
        ...written,
        streamId: 'trainee-1',
        streamRevision: 0,
        position: 1,
      });
    });

    it('chains an append to a stream stored before the chain began to the hash of its whole older part', async () => {
      open();
      const insert = rawConnection().prepare(
        "INSERT INTO events (id, stream_id, revision, type, data, metadata, recorded_at) VALUES (?, 'trainee-1', ?, 'Old', ?, '{\"schemaVersion\":1}', 'now')",
      );
      for (let revision = 0; revision < 3; revision++) insert.run(randomUUID(), revision, JSON.stringify({ n: revision }));
      const store = open();
      await store.appendToStream('trainee-1', [event('New', { n: 3 })], { expectedRevision: 2 });

      const rows = storedTexts(rawConnection());
      const older = checkStreamChain(rows.slice(0, 3)).headHash;
      expect(older).toMatch(/^[0-9a-f]{64}$/);
      expect(readChainKeys(rows[3].metadata).previousHash).toBe(older);
      expect(checkStreamChain(rows).faults).toEqual([]);
    });

    it('stores events unchained with hashChain false (the bench only), and chains again after them when it is on', async () => {
      const unchained = openSqliteEventStore(dataDir, { hashChain: false });
      await unchained.appendToStream('trainee-1', [event('A'), event('B')]);
      expect((await unchained.readStream('trainee-1')).map((e) => e.metadata.hash)).toEqual([undefined, undefined]);
      await unchained.close();
      const store = open();
      await store.appendToStream('trainee-1', [event('C')]);
      const rows = storedTexts(rawConnection());
      expect(readChainKeys(rows[2].metadata).previousHash).toBe(checkStreamChain(rows.slice(0, 2)).headHash);
      expect(checkStreamChain(rows).faults).toEqual([]);
    });

    it("chains to the head's stored hash it reads and checks, whatever link the caller hands back", async () => {
      const store = open();
      await store.appendToStream('trainee-1', [event('A')]);
      const [head] = await store.readStream('trainee-1');
      await store.appendToStream('trainee-1', [event('B')], { expectedRevision: streamHeadOf(head) });
      // A caller's link is not trusted (the expected revision is checked): the head's row is read and its hash checked.
      const wrong = { revision: 1, link: 'a'.repeat(64) as ChainLink };
      await store.appendToStream('trainee-1', [event('C')], { expectedRevision: wrong });
      await store.appendToStream('trainee-1', [event('D')], { expectedRevision: { revision: 2, link: 'not a hash' as ChainLink } });
      await expect(
        store.appendToStream('trainee-1', [event('E')], { expectedRevision: { revision: 2, link: null } }),
      ).rejects.toBeInstanceOf(WrongExpectedVersionError);
      const rows = storedTexts(rawConnection());
      expect(rows.map((r) => readChainKeys(r.metadata).previousHash)).toEqual([
        null,
        readChainKeys(rows[0].metadata).hash,
        readChainKeys(rows[1].metadata).hash,
        readChainKeys(rows[2].metadata).hash,
      ]);
      expect(checkStreamChain(rows).faults).toEqual([]);
    });

    it('reads a file of schema 1 (id and metadata as text) as before, and appends after it in the packed form, one chain across both', async () => {
      const old = rawConnection();
      old.exec(SCHEMA_SQL);
      old.pragma('user_version = 1');
      const insert = old.prepare(
        "INSERT INTO events (id, stream_id, revision, type, data, metadata, recorded_at) VALUES (?, 'trainee-1', ?, ?, ?, ?, 'now')",
      );
      let previous: string | null = null;
      const before = [event('A', { n: 0 }), { ...event('B', { n: 1 }), metadata: { ...event('B').metadata, requestId: randomUUID() } }];
      before.forEach((e, revision) => {
        const text = { streamId: 'trainee-1', revision, id: e.id, type: e.type, data: JSON.stringify(e.data) };
        const chained = chainEvent(previous, { ...text, metadata: JSON.stringify(e.metadata) });
        insert.run(e.id, revision, e.type, text.data, chained.metadata);
        previous = chained.hash;
      });
      const stored = storedTexts(old);

      const store = open();
      expect((await store.readStoredStream('trainee-1')).map((e) => e.metadata)).toEqual(stored.map((e) => e.metadata));
      expect((await store.readStream('trainee-1')).map((e) => e.metadata)).toEqual(stored.map((e) => JSON.parse(e.metadata)));
      await store.appendToStream('trainee-1', [event('C')], { expectedRevision: 1 });
      // An id stored as text is found as the packed one is: a retry is answered as before, a reuse elsewhere refused.
      await expect(store.appendToStream('trainee-1', before, { expectedRevision: 'no_stream' })).resolves.toMatchObject({
        nextExpectedRevision: 1,
        position: 2,
      });
      await expect(store.appendToStream('trainee-2', [before[1]])).rejects.toBeInstanceOf(IdempotencyConflictError);

      const db = rawConnection();
      expect(db.pragma('user_version', { simple: true })).toBe(2);
      const forms = db.prepare('SELECT typeof(id) || typeof(metadata) FROM events ORDER BY position').pluck().all();
      expect(forms).toEqual(['texttext', 'texttext', 'blobblob']);
      const rows = storedTexts(db);
      expect(rows.slice(0, 2)).toEqual(stored);
      expect(readChainKeys(rows[2].metadata).previousHash).toBe(previous);
      expect(checkStreamChain(rows).faults).toEqual([]);
      expect((await store.readStoredStream('trainee-1')).map((e) => e.metadata)).toEqual(rows.map((e) => e.metadata));
    });

    it('refuses a file written by a newer schema version', async () => {
      open();
      const db = rawConnection();
      db.pragma('user_version = 99');
      expect(() => openSqliteEventStore(dataDir)).toThrow(/schema 99/);
    });

    it('gives each :memory: store its own database', async () => {
      const a = new SqliteEventStore({ filename: ':memory:' });
      const b = new SqliteEventStore({ filename: ':memory:' });
      toClose.push(a, b);
      await a.appendToStream('trainee-1', [event('A')]);
      expect(await a.readStream('trainee-1')).toHaveLength(1);
      expect(await b.readStream('trainee-1')).toEqual([]);
      expect(await b.headPosition()).toBe(0);
    });
  });

  describe('input checks', () => {
    it('rejects an event id that is not a UUID, writing nothing', async () => {
      const store = open();
      await expect(store.appendToStream('trainee-1', [event('A'), { ...event('B'), id: 'e-2' }])).rejects.toThrow(TypeError);
      expect(await store.headPosition()).toBe(0);
    });

    it('stores ids lower-case and recognises a retry spelled in upper case', async () => {
      const store = open();
      const upper = { ...event('A'), id: randomUUID().toUpperCase() };
      const original = await store.appendToStream('trainee-1', [upper]);

      expect(await store.appendToStream('trainee-1', [upper], { expectedRevision: 'no_stream' })).toEqual(original);
      expect((await store.readStream('trainee-1')).map((e) => e.id)).toEqual([upper.id.toLowerCase()]);
    });

    it('rejects a batch that repeats an id with IdempotencyConflictError, writing nothing', async () => {
      const store = open();
      const e = event('A');
      await expect(store.appendToStream('trainee-1', [e, e])).rejects.toBeInstanceOf(IdempotencyConflictError);
      expect(await store.readStream('trainee-1')).toEqual([]);
    });

    it('rejects data that JSON cannot carry, a negative expected revision and bad read bounds', async () => {
      const store = open();
      await expect(store.appendToStream('trainee-1', [{ ...event('A'), data: undefined }])).rejects.toThrow(TypeError);
      await expect(store.appendToStream('trainee-1', [event('A')], { expectedRevision: -1 })).rejects.toThrow(RangeError);
      await expect(store.appendToStream('', [event('A')])).rejects.toThrow(TypeError);
      await expect(store.readAll({ maxCount: 0 })).rejects.toThrow(RangeError);
      await expect(store.readAll({ fromPosition: logPosition(-1) })).rejects.toThrow(RangeError);
      await expect(store.readStream('trainee-1', { fromRevision: 1.5 })).rejects.toThrow(RangeError);
      expect(() => new SqliteEventStore({ filename: ':memory:', pollIntervalMs: 0 })).toThrow(RangeError);
      expect(await store.headPosition()).toBe(0);
    });
  });

  describe('readAll', () => {
    it('returns 1000 events by default', async () => {
      const store = open();
      for (let i = 0; i < 11; i++) {
        await store.appendToStream(
          `trainee-${i}`,
          Array.from({ length: 100 }, () => event('A')),
        );
      }
      const page = await store.readAll();
      expect(page).toHaveLength(1000);
      expect(page[999].position).toBe(1000);
    });
  });

  describe('subscriptions', () => {
    it('is woken at once by an append through another instance on the same file (no polling)', async () => {
      const reader = open({ pollIntervalMs: HOUR_MS });
      const writer = open({ pollIntervalMs: HOUR_MS });
      const subscription = reader.subscribeToAll();
      try {
        const iterator = subscription[Symbol.asyncIterator]();
        const pending = take(iterator, 2);
        await new Promise((resolve) => setTimeout(resolve, 20)); // let it reach its live wait
        await writer.appendToStream('trainee-1', [event('A'), event('B')]);
        expect((await pending).map((e) => e.type)).toEqual(['A', 'B']);
      } finally {
        await subscription.unsubscribe();
      }
    });

    it('sees by polling an append made by a connection that does not signal (another process)', async () => {
      const store = open({ pollIntervalMs: 10 });
      const subscription = store.subscribeToAll();
      try {
        const pending = take(subscription[Symbol.asyncIterator](), 1);
        await new Promise((resolve) => setTimeout(resolve, 20));
        rawConnection()
          .prepare(
            "INSERT INTO events (id, stream_id, revision, type, data, metadata, recorded_at) VALUES (?, 'trainee-9', 0, 'Raw', '{\"n\":1}', '{\"schemaVersion\":1}', 'now')",
          )
          .run(randomUUID());
        const [received] = await pending;
        expect(received).toMatchObject({ type: 'Raw', data: { n: 1 }, streamId: 'trainee-9', position: 1 });
      } finally {
        await subscription.unsubscribe();
      }
    });

    it('catches up across several read batches and past long runs of non-matching events', async () => {
      const store = open({ pollIntervalMs: HOUR_MS });
      await store.appendToStream('trainee-0', [event('Wanted', { n: 0 })]);
      for (let i = 0; i < 12; i++) {
        await store.appendToStream(
          `other-${i}`,
          Array.from({ length: 100 }, () => event('Noise')),
        );
      }
      for (let i = 1; i <= 700; i += 100) {
        await store.appendToStream(
          'trainee-1',
          Array.from({ length: 100 }, (_, k) => event('Wanted', { n: i + k })),
        );
      }
      const subscription = store.subscribeToAll({ filter: { streamPrefixes: ['trainee-'] } });
      try {
        const iterator = subscription[Symbol.asyncIterator]();
        const caughtUp = await take(iterator, 701);
        expect(caughtUp.map((e) => (e.data as { n: number }).n)).toEqual(Array.from({ length: 701 }, (_, n) => n));

        const pending = take(iterator, 1);
        await store.appendToStream(
          'other-x',
          Array.from({ length: 600 }, () => event('Noise')),
        );
        await store.appendToStream('trainee-2', [event('Wanted', { n: 701 })]);
        expect((await pending)[0]).toMatchObject({ streamId: 'trainee-2', position: 2 + 1200 + 700 + 600 });
      } finally {
        await subscription.unsubscribe();
      }
    });

    it('serves concurrent next() calls one after the other, each with a different event', async () => {
      const store = open();
      await store.appendToStream('trainee-1', [event('A'), event('B'), event('C')]);
      const subscription = store.subscribeToAll();
      try {
        const iterator = subscription[Symbol.asyncIterator]();
        const results = await Promise.all([iterator.next(), iterator.next(), iterator.next()]);
        expect(results.map((r) => (r.done ? null : r.value.type))).toEqual(['A', 'B', 'C']);
      } finally {
        await subscription.unsubscribe();
      }
    });

    it('close() ends pending subscriptions and later calls reject', async () => {
      const store = open();
      const subscription = store.subscribeToAll();
      const pending = subscription[Symbol.asyncIterator]().next();
      await new Promise((resolve) => setTimeout(resolve, 20));

      await store.close();

      expect(await pending).toEqual({ done: true, value: undefined });
      await expect(store.readStream('trainee-1')).rejects.toThrow(/closed/);
      await expect(store.appendToStream('trainee-1', [event('A')])).rejects.toThrow(/closed/);
      await expect(store.close()).resolves.toBeUndefined();
    });
  });
});
