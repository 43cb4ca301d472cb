import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { SqliteEventStore } from '@app/stores/sqlite';
import { AppendTooLargeError, LOG_START, logPosition, type EventData, type EventStore, type RecordedEvent } from '@app/event-sourcing';
import { exportEvents, ImportFileInvalid, importEvents, ImportTargetNotEmpty, type ExportedEvent } from './event-transfer';

let counter = 0;
/** A fresh event id (UUID v4 shape, deterministic per test run). */
function uuid(): string {
  counter += 1;
  const hex = counter.toString(16).padStart(12, '0');
  return `00000000-0000-4000-8000-${hex}`;
}

function event(type: string, data: unknown, occurredAt = '2026-01-05T10:00:00.000Z'): EventData {
  return {
    id: uuid(),
    type,
    data,
    metadata: { schemaVersion: 1, occurredAt, providerUkprn: '10000001', tokenId: 'tok-1', apiVersion: 'v2025.0', requestId: 'r1' },
  };
}

/** An export line of `trainee-Z`'s event at `revision` (position `revision + 1`), a TraineeUpdated holding `data`. */
function exportedUpdate(revision: number, data: unknown): string {
  return JSON.stringify({
    position: revision + 1,
    stream_id: 'trainee-Z',
    revision,
    id: uuid(),
    type: 'TraineeUpdated',
    data,
    metadata: { schemaVersion: 1, occurredAt: '2026-01-05T10:00:00.000Z' },
  });
}

/** Everything in a store, in position order. */
async function readEverything(store: EventStore): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  for (;;) {
    const batch = await store.readAll({ fromPosition: all.length ? all[all.length - 1].position : LOG_START, maxCount: 500 });
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

/** A Writable collecting what it is given, slowly (to exercise backpressure). */
function collector(): Writable & { text: () => string; writes: number } {
  const chunks: string[] = [];
  const w = new Writable({
    highWaterMark: 16,
    write(chunk, _enc, cb) {
      chunks.push(String(chunk));
      setImmediate(cb);
    },
  }) as Writable & { text: () => string; writes: number };
  w.text = () => chunks.join('');
  Object.defineProperty(w, 'writes', { get: () => chunks.length });
  return w;
}

describe('event export and import (JSON lines)', () => {
  let dir: string;
  let source: SqliteEventStore;
  let target: SqliteEventStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'event-transfer-'));
    source = new SqliteEventStore({ filename: join(dir, 'source.sqlite'), synchronous: 'normal' });
    target = new SqliteEventStore({ filename: join(dir, 'target.sqlite'), synchronous: 'normal' });
    // Interleaved streams, multi-event appends, an old schema version, unicode and nested data.
    await source.appendToStream('provider-10000001', [event('ProviderRegistered', { ukprn: '10000001', name: 'Ünïversity “A”' })], {
      expectedRevision: 'no_stream',
    });
    await source.appendToStream(
      'trainee-A',
      [
        event('TraineeRegistered', { trainee_id: 'A', details: { first_names: 'Zoë' } }),
        event('PlacementAdded', { placement: { urn: '100001' } }),
      ],
      { expectedRevision: 'no_stream' },
    );
    await source.appendToStream('trainee-B', [event('TraineeRegistered', { trainee_id: 'B' })], { expectedRevision: 'no_stream' });
    for (let i = 0; i < 20; i++) {
      await source.appendToStream(i % 2 ? 'trainee-A' : 'trainee-B', [
        event('TraineeUpdated', { changes: { middle_names: `M${i}` }, list: [1, null, { x: true }] }),
      ]);
    }
    await source.appendToStream('trainee-A', [
      { ...event('TraineeUpdated', { fields: { old: 1 } }), metadata: { schemaVersion: 0, occurredAt: '2025-12-01T00:00:00.000Z' } },
    ]);
    await source.appendToStream('registrationguard-abc', [event('RegistrationClaimed', { trainee_id: 'C' })], {
      expectedRevision: 'no_stream',
    });
  });
  afterEach(async () => {
    await source.close();
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exports every event as one JSON object per line, in position order, in batches', async () => {
    const out = collector();
    const count = await exportEvents(source, out, { batchSize: 7 });
    const stored = await readEverything(source);
    expect(count).toBe(stored.length);
    expect(count).toBe(26);
    const lines = out.text().split('\n');
    expect(lines.pop()).toBe(''); // every line ends with a newline
    const exported = lines.map((l) => JSON.parse(l) as ExportedEvent);
    expect(exported).toEqual(
      stored.map((e) => ({
        position: e.position,
        stream_id: e.streamId,
        revision: e.streamRevision,
        id: e.id,
        type: e.type,
        data: e.data,
        metadata: e.metadata,
      })),
    );
    expect(Object.keys(exported[0])).toEqual(['position', 'stream_id', 'revision', 'id', 'type', 'data', 'metadata']);
    expect(out.writes).toBe(Math.ceil(26 / 7)); // one write per batch of the store
  });

  it('exports only the events after --since, and nothing past the head it started from', async () => {
    const out = collector();
    expect(await exportEvents(source, out, { since: logPosition(20) })).toBe(6);
    expect(
      out
        .text()
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as ExportedEvent).position),
    ).toEqual([21, 22, 23, 24, 25, 26]);
    expect(await exportEvents(source, collector(), { since: logPosition(26) })).toBe(0);
    expect(await exportEvents(source, collector(), { since: logPosition(1000) })).toBe(0);
    await expect(exportEvents(source, collector(), { since: logPosition(-1) })).rejects.toThrow(RangeError);
    await expect(exportEvents(source, collector(), { since: logPosition(1.5) })).rejects.toThrow(RangeError);
  });

  it('imports an export into an empty store: same streams, revisions, ids, types, data, metadata and order', async () => {
    const file = join(dir, 'events.jsonl');
    const out = createWriteStream(file);
    await exportEvents(source, out);
    await new Promise((r) => out.end(r));

    const appends: { stream: string; n: number; expected: unknown }[] = [];
    const spied = Object.create(target) as EventStore;
    spied.appendToStream = (stream, events, options) => {
      appends.push({ stream, n: events.length, expected: options?.expectedRevision });
      return target.appendToStream(stream, events, options);
    };
    expect(await importEvents(spied, createReadStream(file))).toBe(26);

    const before = await readEverything(source);
    const after = await readEverything(target);
    expect(after).toEqual(before); // positions too, as the target started empty
    // Consecutive events of one stream travel in one append, with the revision before them as expected revision.
    expect(appends.slice(0, 3)).toEqual([
      { stream: 'provider-10000001', n: 1, expected: 'no_stream' },
      { stream: 'trainee-A', n: 2, expected: 'no_stream' },
      { stream: 'trainee-B', n: 2, expected: 'no_stream' }, // registered, then the first update
    ]);
    expect(appends[3]).toEqual({ stream: 'trainee-A', n: 1, expected: 1 });
    expect(appends.at(-2)).toEqual({ stream: 'trainee-A', n: 2, expected: 10 }); // the last update and the schema-0 event
    expect(appends).toHaveLength(23);

    // Round trip: exporting the target gives the same file.
    const again = collector();
    await exportEvents(target, again);
    expect(again.text()).toBe(readFileSync(file, 'utf8'));
  });

  it('splits a long run of one stream into appends of at most batchSize events', async () => {
    const lines = Array.from({ length: 12 }, (_, i) => exportedUpdate(i, { i }));
    expect(await importEvents(target, Readable.from([lines.join('\n') + '\n\n'], { objectMode: false }), { batchSize: 5 })).toBe(12);
    expect((await target.readStream('trainee-Z')).map((e) => (e.data as { i: number }).i)).toEqual([...Array(12).keys()]);
  });

  it('sends a batch over the store append limit again one event at a time, and names an event over it alone', async () => {
    const line = (i: number, text: string) => exportedUpdate(i, { text });
    // A store that, as the EventStoreDB adapter does past MaxAppendSize, refuses whole a batch of data over 3,000 bytes.
    const appends: number[] = [];
    const limited = (store: EventStore): EventStore => {
      const refusing = Object.create(store) as EventStore;
      refusing.appendToStream = (stream, events, options) => {
        appends.push(events.length);
        const bytes = events.reduce((sum, e) => sum + JSON.stringify(e.data).length, 0);
        return bytes > 3_000 ? Promise.reject(new AppendTooLargeError(stream, 3_000)) : store.appendToStream(stream, events, options);
      };
      return refusing;
    };
    const fits = [0, 1, 2].map((i) => line(i, 'x'.repeat(1_500)));
    expect(await importEvents(limited(target), Readable.from([fits.join('\n') + '\n']))).toBe(3);
    expect(appends).toEqual([3, 1, 1, 1]);
    expect((await target.readStream('trainee-Z')).map((e) => e.streamRevision)).toEqual([0, 1, 2]);

    const empty = new SqliteEventStore({ filename: join(dir, 'empty.sqlite'), synchronous: 'normal' });
    try {
      const err = await importEvents(limited(empty), Readable.from([line(0, 'x'.repeat(3_001)) + '\n'])).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ImportFileInvalid);
      expect((err as Error).message).toMatch(
        /^line 1: event \S+ of trainee-Z is larger than the event store takes in one append \(3000 bytes\): raise the server's limit \(EventStoreDB: MaxAppendSize\)/,
      );
      expect(await empty.headPosition()).toBe(0);
    } finally {
      await empty.close();
    }
  });

  it('refuses a store that holds events, writing nothing', async () => {
    const input = new PassThrough();
    input.end('');
    const err = await importEvents(source, input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportTargetNotEmpty);
    expect((err as Error).message).toMatch(/not empty.*position 26/);
    expect(await source.headPosition()).toBe(26);
  });

  it.each([
    ['a line that is not JSON', ['{"oops'], /line 1: not JSON/],
    ['a missing stream id', [{ revision: 0, id: 'x', type: 'T', data: {}, metadata: {} }], /line 1: stream_id must be a non-empty string/],
    [
      'a negative revision',
      [{ stream_id: 's-1', revision: -1, id: 'x', type: 'T', data: {}, metadata: {} }],
      /line 1: revision must be an integer/,
    ],
    [
      'array metadata',
      [{ stream_id: 's-1', revision: 0, id: 'x', type: 'T', data: {}, metadata: [] }],
      /line 1: metadata must be an object/,
    ],
    ['no data', [{ stream_id: 's-1', revision: 0, id: 'x', type: 'T', metadata: {} }], /line 1: data must be present/],
    ['an id that is not a UUID', [{ stream_id: 's-1', revision: 0, id: 'x', type: 'T', data: {}, metadata: {} }], /line 1: .*UUID/],
    [
      'positions out of order',
      [
        { position: 5, stream_id: 's-1', revision: 0, id: uuid(), type: 'T', data: {}, metadata: {} },
        { position: 4, stream_id: 's-2', revision: 0, id: uuid(), type: 'T', data: {}, metadata: {} },
      ],
      /line 2: position 4 is not after the previous line's 5/,
    ],
    [
      'a stream starting past revision 0 (an export made with --since)',
      [{ position: 9, stream_id: 's-1', revision: 3, id: uuid(), type: 'T', data: {}, metadata: {} }],
      /line 1: s-1 revision 3 does not follow .*--since/,
    ],
    [
      'a gap in a stream',
      [
        { stream_id: 's-1', revision: 0, id: uuid(), type: 'T', data: {}, metadata: {} },
        { stream_id: 's-2', revision: 0, id: uuid(), type: 'T', data: {}, metadata: {} },
        { stream_id: 's-1', revision: 2, id: uuid(), type: 'T', data: {}, metadata: {} },
      ],
      /line 3: s-1 revision 2 does not follow the events before it \(the stream's last revision is 0\)/,
    ],
  ])('refuses %s, naming the line', async (_name, lines, message) => {
    const text = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');
    const err = await importEvents(target, Readable.from([text])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportFileInvalid);
    expect((err as Error).message).toMatch(message);
  });

  it('refuses an export changed after it was written: an event that no longer matches its hash chain', async () => {
    const out = collector();
    await exportEvents(source, out);
    const lines = out.text().trimEnd().split('\n');
    const at = lines.findIndex((l) => l.includes('"M7"'));
    const changed = [...lines.slice(0, at), lines[at].replace('"M7"', '"M8"'), ...lines.slice(at + 1)].join('\n');
    const err = await importEvents(target, Readable.from([changed])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportFileInvalid);
    expect((err as Error).message).toMatch(new RegExp(`line ${at + 1}: .* does not match the hash chain it was exported with`));
    const fresh = new SqliteEventStore({ filename: join(dir, 'fresh.sqlite'), synchronous: 'normal' });
    try {
      expect(await importEvents(fresh, Readable.from([lines.join('\n')]))).toBe(lines.length);
    } finally {
      await fresh.close();
    }
  });

  it('refuses a repeated line instead of skipping it silently', async () => {
    const line = JSON.stringify({ stream_id: 's-1', revision: 0, id: uuid(), type: 'T', data: {}, metadata: {} });
    const other = JSON.stringify({ stream_id: 's-2', revision: 0, id: uuid(), type: 'T', data: {}, metadata: {} });
    const err = await importEvents(target, Readable.from([`${line}\n${other}\n${line}\n`])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportFileInvalid);
    expect((err as Error).message).toMatch(/line 3: .*(imported already|more than once)/);
  });

  it('streams a large file line by line', async () => {
    const file = join(dir, 'big.jsonl');
    const n = 5000;
    const streams = 50;
    const revisions = new Array<number>(streams).fill(0);
    const text: string[] = [];
    for (let i = 0; i < n; i++) {
      const s = i % streams;
      text.push(
        JSON.stringify({
          position: i + 1,
          stream_id: `trainee-${s}`,
          revision: revisions[s]++,
          id: uuid(),
          type: 'TraineeUpdated',
          data: { i },
          metadata: { schemaVersion: 1, occurredAt: '2026-01-05T10:00:00.000Z' },
        }),
      );
    }
    writeFileSync(file, text.join('\r\n'));
    expect(await importEvents(target, createReadStream(file, { highWaterMark: 1024 }))).toBe(n);
    expect(await target.headPosition()).toBe(n);
    expect((await target.readStream('trainee-7')).map((e) => e.streamRevision)).toEqual([...Array(n / streams).keys()]);
  });
});
