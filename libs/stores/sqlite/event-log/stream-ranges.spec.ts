/**
 * The stream phase's ranges (docs/DESIGN.md "Rebuilding by stream"): one category's streams split
 * into ranges of whole streams of about a given number of events, which together read every event
 * of the category up to the snapshot once, in stream-id order, from the start or from a cursor.
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import type { EventData, RecordedEvent } from '@app/event-sourcing';
import { openSqliteEventStore, type SqliteEventStore } from './sqlite-event-store';
import { type RangeStart, StreamRanges } from './stream-ranges';

function events(n: number): EventData[] {
  return Array.from({ length: n }, () => ({
    id: randomUUID(),
    type: 'Happened',
    data: {},
    metadata: { schemaVersion: 1, occurredAt: '2026-01-05T10:00:00.000Z' },
  }));
}

/** Every range from `start`, in turn, as the stream phase hands them out: its last stream (undefined: to the end) and its events. */
function allRanges(ranges: StreamRanges, start: RangeStart, size: number): { last: string | undefined; streams: string[] }[] {
  const out: { last: string | undefined; streams: string[] }[] = [];
  for (let next: RangeStart | null = start; next !== null;) {
    const last = ranges.end(next, size);
    const read: RecordedEvent[] = ranges.read(next, last);
    out.push({ last, streams: read.map((e) => `${e.streamId}@${e.streamRevision}`) });
    next = last === undefined ? null : { ...next, afterStream: last };
  }
  return out;
}

describe('StreamRanges', () => {
  let dir: string;
  let store: SqliteEventStore;
  let db: Database.Database;
  let snapshot: number;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stream-ranges-'));
    store = openSqliteEventStore(dir);
    // Interleaved appends; another category on either side of the prefix.
    await store.appendToStream('provider-1', events(2));
    await store.appendToStream('trainee-c', events(3));
    await store.appendToStream('trainee-a', events(2));
    await store.appendToStream('trainee-b', events(1));
    await store.appendToStream('trainee-c', events(2));
    await store.appendToStream('trainee-d', events(2));
    await store.appendToStream('a-first', events(1));
    await store.appendToStream('trainee-a', events(1));
    snapshot = await store.headPosition();
    // After the snapshot: a new stream and one more event of an old one, neither read.
    await store.appendToStream('trainee-e', events(1));
    await store.appendToStream('trainee-b', events(1));
    db = new Database(path.join(dir, 'events.sqlite'), { readonly: true });
  });

  afterAll(async () => {
    db.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('splits the category into ranges of whole streams of about the size asked, each event once, up to the snapshot', () => {
    const ranges = allRanges(new StreamRanges(db), { streamPrefix: 'trainee-', afterStream: null, toPosition: snapshot }, 3);
    // a has 3 events up to the snapshot; the 3rd event from b is c's first; fewer than 3 remain after c.
    expect(ranges).toEqual([
      { last: 'trainee-a', streams: ['trainee-a@0', 'trainee-a@1', 'trainee-a@2'] },
      { last: 'trainee-c', streams: ['trainee-b@0', 'trainee-c@0', 'trainee-c@1', 'trainee-c@2', 'trainee-c@3', 'trainee-c@4'] },
      { last: undefined, streams: ['trainee-d@0', 'trainee-d@1'] },
    ]);
  });

  it('starts after a cursor, and reads nothing where nothing is left', () => {
    const ranges = new StreamRanges(db);
    expect(allRanges(ranges, { streamPrefix: 'trainee-', afterStream: 'trainee-b', toPosition: snapshot }, 100)).toEqual([
      {
        last: undefined,
        streams: ['trainee-c@0', 'trainee-c@1', 'trainee-c@2', 'trainee-c@3', 'trainee-c@4', 'trainee-d@0', 'trainee-d@1'],
      },
    ]);
    expect(allRanges(ranges, { streamPrefix: 'trainee-', afterStream: 'trainee-d', toPosition: snapshot }, 1)).toEqual([
      { last: undefined, streams: [] },
    ]);
  });

  it('with a size of one event, gives one range per stream', () => {
    const ranges = allRanges(new StreamRanges(db), { streamPrefix: 'trainee-', afterStream: null, toPosition: snapshot }, 1);
    expect(ranges.map((r) => r.last)).toEqual(['trainee-a', 'trainee-b', 'trainee-c', 'trainee-d', undefined]);
    expect(ranges.at(-1)!.streams).toEqual([]);
  });

  it('lists the streams in the order they began, with their events up to the snapshot, and reads a list in its order', () => {
    const ranges = new StreamRanges(db);
    expect(ranges.inCreationOrder('trainee-', snapshot)).toEqual({
      streams: ['trainee-c', 'trainee-a', 'trainee-b', 'trainee-d'],
      events: [5, 3, 1, 2],
    });
    const read = ranges.readStreams(['trainee-b', 'trainee-a'], snapshot);
    expect(read.map((e) => `${e.streamId}@${e.streamRevision}`)).toEqual(['trainee-b@0', 'trainee-a@0', 'trainee-a@1', 'trainee-a@2']);
  });
});
