import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  logPosition,
  newEventId,
  type EventStore,
  type ReadStreamOptions,
  type RecordedEvent,
  type StoredEventText,
  checkStreamChain,
} from '@app/event-sourcing';
import { SqliteEventStore } from '@app/stores/sqlite';
import type { HashedHead } from './digest';
import { recordDigest } from './digest-events';
import { digestLog } from './digest-log';
import { digestSection, latestRecordedDigest, readStoredStream, type RecordedDigest } from './stream-digest';
import { storedStreamChunks, verifyStoredStream } from './stream-verification';

const STREAM = 'trainee-T1';
const noted = (n: number) => ({
  id: newEventId(),
  type: 'Noted',
  data: { n, text: `note ${n}` },
  metadata: { schemaVersion: 1, occurredAt: '2026-01-05T10:00:00.000Z' },
});
const events = (from: number, count: number) => Array.from({ length: count }, (_, i) => noted(from + i));

/** A store as another adapter would be, its events as `edit` makes them: no stored texts, so it is read through readStream. */
function portOnly(store: EventStore, edit: (e: RecordedEvent) => RecordedEvent = (e) => e): EventStore {
  return { readStream: async (id: string, o?: ReadStreamOptions) => (await store.readStream(id, o)).map(edit) } as unknown as EventStore;
}

async function chunksOf(store: EventStore, size: number): Promise<StoredEventText[][]> {
  const chunks: StoredEventText[][] = [];
  for await (const chunk of storedStreamChunks(store, STREAM, size)) chunks.push(chunk);
  return chunks;
}

describe('verifyStoredStream (the history report’s verification, a chunk at a time)', () => {
  let dir: string;
  let store: SqliteEventStore;
  let recorded: RecordedDigest;
  const { privateKey } = generateKeyPairSync('ed25519');
  const asked: HashedHead[] = [];
  const prove = (h: HashedHead) => (asked.push(h), h.revision === 2);

  /** What the report showed when it read the stream whole: `checkStreamChain` and `digestSection` of the stream as stored. */
  async function whole(from: EventStore, digest: RecordedDigest | null) {
    const stored = await readStoredStream(from, STREAM);
    return {
      chain: { ...checkStreamChain(stored), events: stored.length },
      digest: digestSection(digest, stored, prove),
      firstPosition: stored[0]?.position,
    };
  }

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'stream-verification-'));
    store = new SqliteEventStore({ filename: join(dir, 'events.sqlite'), synchronous: 'normal' });
    await store.appendToStream('trainee-other', events(0, 2));
    await store.appendToStream(STREAM, events(0, 3));
    await recordDigest(store, (await digestLog(store, privateKey)).digest, 'auditor');
    await store.appendToStream(STREAM, events(3, 4));
    recorded = (await latestRecordedDigest(store))!;
    asked.length = 0;
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the stream as stored in chunks, whose concatenation is the whole stream, through either reader', async () => {
    const stored = await readStoredStream(store, STREAM);
    expect(stored).toHaveLength(7);
    for (const size of [1, 3, 7, 1000]) {
      const chunks = await chunksOf(store, size);
      expect(chunks.map((c) => c.length)).toEqual(size >= 7 ? [7] : size === 3 ? [3, 3, 1] : Array(7).fill(1));
      expect(chunks.flat()).toEqual(stored);
      expect((await chunksOf(portOnly(store), size)).flat()).toEqual(stored);
    }
    expect(await store.readStoredStream(STREAM, { fromRevision: 5 })).toEqual(stored.slice(5));
    expect(await store.readStoredStream('trainee-none', { maxCount: 2 })).toEqual([]);
    await expect(store.readStoredStream(STREAM, { maxCount: 0 })).rejects.toThrow(RangeError);
    await expect(store.readStoredStream(STREAM, { fromRevision: -1 })).rejects.toThrow(RangeError);
  });

  it('finds what the whole stream shows: the head under the digest, the events after it, the first position', async () => {
    const expected = await whole(store, recorded);
    expect(expected.chain.faults).toEqual([]);
    expect([expected.digest!.head!.revision, expected.digest!.laterEvents, expected.digest!.included]).toEqual([2, 4, true]);
    for (const size of [1, 2, 3, 1000]) {
      expect(await verifyStoredStream(store, STREAM, recorded, { proveInclusion: prove, chunkSize: size })).toEqual(expected);
      expect(await verifyStoredStream(portOnly(store), STREAM, recorded, { proveInclusion: prove, chunkSize: size })).toEqual(expected);
      expect(await verifyStoredStream(store, STREAM, null, { chunkSize: size })).toEqual(await whole(store, null));
    }
    expect(asked.every((h) => h.revision === 2 && h.hash === expected.digest!.head!.hash)).toBe(true);
    const none = await verifyStoredStream(store, 'trainee-none', recorded, { chunkSize: 2 });
    expect(none).toEqual({
      chain: { faults: [], headHash: null, events: 0 },
      digest: digestSection(recorded, []),
      firstPosition: undefined,
    });
  });

  it('reads a stream whose chain does not hold whole, for each fault to be classified as the whole check does', async () => {
    const db = new Database(join(dir, 'events.sqlite'));
    db.exec('DROP TRIGGER events_no_update');
    const edit = (revision: number, from: string, to: string) =>
      db.prepare(`UPDATE events SET data = replace(data, ?, ?) WHERE stream_id = ? AND revision = ?`).run(from, to, STREAM, revision);
    try {
      // The text alone: the data reads back the same, so only the stored text shows the change.
      edit(1, '"n":1,', '"n": 1,');
      const textOnly = await whole(store, recorded);
      expect(textOnly.chain.faults.map((f) => [f.revision, f.kind])).toEqual([[1, 'altered']]);
      expect(await verifyStoredStream(store, STREAM, recorded, { proveInclusion: prove, chunkSize: 3 })).toEqual(textOnly);
      edit(4, 'note 4', 'note 9');
      const expected = await whole(store, recorded);
      expect(expected.chain.faults.map((f) => [f.revision, f.kind])).toEqual([
        [1, 'altered'],
        [4, 'altered'],
      ]);
      for (const size of [2, 3]) {
        expect(await verifyStoredStream(store, STREAM, recorded, { proveInclusion: prove, chunkSize: size })).toEqual(expected);
      }
    } finally {
      db.close();
    }
  });

  it('reads the stream whole when the events at or before the digest’s position are not its first ones', async () => {
    // Unchained events (stored before the chain began) are hashed from the event before: skipping one changes the head's hash.
    const legacy = new SqliteEventStore({ filename: join(dir, 'legacy.sqlite'), synchronous: 'normal', hashChain: false });
    try {
      await legacy.appendToStream(STREAM, events(0, 3));
      await recordDigest(legacy, (await digestLog(legacy, privateKey)).digest, 'auditor');
      await legacy.appendToStream(STREAM, events(3, 2));
      const digest = (await latestRecordedDigest(legacy))!;
      const moved = portOnly(legacy, (e) => (e.streamRevision === 1 ? { ...e, position: logPosition(digest.digest.position + 100) } : e));
      const expected = await whole(moved, digest);
      const stored = await readStoredStream(moved, STREAM);
      expect([expected.chain.faults, expected.digest!.head!.revision, expected.digest!.laterEvents]).toEqual([[], 2, 3]);
      expect(expected.digest!.head!.hash).not.toBe(checkStreamChain(stored.slice(0, 3)).headHash);
      expect(await verifyStoredStream(moved, STREAM, digest, { proveInclusion: prove, chunkSize: 2 })).toEqual(expected);
    } finally {
      await legacy.close();
    }
  });
});
