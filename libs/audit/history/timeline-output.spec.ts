import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { newEventId, toEventData, type EventStore, type RecordedEvent, type StoredLog } from '@app/event-sourcing';
import { type TraineeEvent, traineeStreamId } from '@app/trainees/decider';
import {
  exampleRegistration,
  placementAdded,
  traineeDeferred,
  traineeUpdated,
  trnIssued,
} from '@app/trainees/decider/testing/trainee-events';
import { traineeTimelinePage, type TimelineEntry, type TimelineSource } from '@app/trainees/read';
import { SqliteEventStore } from '@app/stores/sqlite';
import { AuditRefused } from '../audit-log';
import { timelineTable, writeTimeline } from './timeline-output';

const ID = 'Stream1';

/** A log in the clear as the timeline's source: read as stored, nothing to open. */
const asStored = (store: StoredLog): TimelineSource => ({ storedLog: store, openStored: async (events) => events });

/** The whole timeline of `events` (as stored: this store seals nothing), with each event's stored form, as the CLI prints it. */
const wholeTimeline = (events: RecordedEvent[]): TimelineEntry[] => traineeTimelinePage(events, 'none', events).entries;
const at = (seconds: number) => new Date(Date.parse('2026-01-05T10:00:00.000Z') + seconds * 1000).toISOString();

type WriteDone = (error?: Error | null) => void;

/** A writable that keeps each write apart, and asks its writer to wait for 'drain' once it holds `highWaterMark` bytes. */
class Collected extends Writable {
  readonly writes: string[] = [];
  /** The most bytes waiting in the stream's buffer when a write was made. */
  mostBuffered = 0;
  constructor(highWaterMark = 1 << 20) {
    super({ highWaterMark, decodeStrings: false });
  }
  override write(chunk: string, encodingOrDone?: BufferEncoding | WriteDone, done?: WriteDone): boolean {
    this.mostBuffered = Math.max(this.mostBuffered, this.writableLength);
    if (typeof encodingOrDone === 'function') return super.write(chunk, encodingOrDone);
    return encodingOrDone === undefined ? super.write(chunk, done) : super.write(chunk, encodingOrDone, done);
  }
  override _write(chunk: string, _encoding: BufferEncoding, done: () => void): void {
    this.writes.push(chunk);
    setImmediate(done);
  }
  get text(): string {
    return this.writes.join('');
  }
  /** Ends the stream once everything written has reached {@link writes}. */
  async finished(): Promise<this> {
    this.end();
    await once(this, 'finish');
    return this;
  }
}

/** 1 registration (4 events), 240 updates, a placement every 50 changes, a deferral and a TRN: 250 events. */
async function writeLongHistory(store: EventStore): Promise<void> {
  const events: TraineeEvent[] = [...exampleRegistration({ trainee_id: ID, ukprn: '10000001', at: at(0) })];
  for (let i = 1; i <= 244; i++) {
    if (i % 50 === 0) {
      const placement = { placement_id: `P${i}`, name: `School ${i}`, created_at: at(i), updated_at: at(i) };
      events.push(placementAdded({ trainee_id: ID, at: at(i), placement }));
    } else events.push(traineeUpdated({ trainee_id: ID, changes: { middle_names: `M${i}` }, at: at(i) }));
  }
  events.push(traineeDeferred({ trainee_id: ID, defer_date: '2026-02-01', defer_reason: null, at: at(300) }));
  events.push(trnIssued({ trainee_id: ID, trn: '4830275', at: at(301) }));
  const data = toEventData(events, { occurredAt: at(0), providerUkprn: '10000001', apiVersion: 'v2025.0', tokenId: null }, newEventId);
  await store.appendToStream(traineeStreamId(ID), data, { expectedRevision: 'no_stream' });
}

describe('trainee history streamed by the admin CLI (docs/operations.md "Trainee history")', () => {
  let dir: string;
  let store: SqliteEventStore;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'history-stream-'));
    store = new SqliteEventStore({ filename: join(dir, 'events.sqlite'), synchronous: 'normal' });
    await writeLongHistory(store);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes JSON lines chunk by chunk, together exactly the whole timeline', async () => {
    const whole = wholeTimeline(await store.readStream(traineeStreamId(ID)));
    expect(whole).toHaveLength(250);
    const out = new Collected();
    expect(await writeTimeline(asStored(store), ID, 'json', out, { chunkSize: 60 })).toBe(250);
    await out.finished();
    expect(out.text).toBe(whole.map((e) => `${JSON.stringify(e)}\n`).join(''));
    // One write per chunk of 60 events, each of at most 60 lines.
    expect(out.writes.map((w) => w.split('\n').length - 1)).toEqual([60, 60, 60, 60, 10]);
  });

  it('writes the table chunk by chunk, the same text as the whole table, its columns aligned', async () => {
    const whole = wholeTimeline(await store.readStream(traineeStreamId(ID)));
    const out = new Collected();
    await writeTimeline(asStored(store), ID, 'table', out, { chunkSize: 100 });
    await out.finished();
    expect(out.text).toBe(timelineTable(whole));
    expect(out.writes).toHaveLength(1 + 3); // the title line, then three chunks
    const rows = out.text.trimEnd().split('\n');
    expect(rows).toHaveLength(251);
    const start = rows[0].indexOf('CHANGED_FIELDS');
    for (const [k, row] of rows.slice(1).entries()) expect(row.slice(start)).toBe(whole[k].changed_fields.join(',') || '-');
  });

  it('waits for a slow output to drain between chunks, and writes it all', async () => {
    const whole = wholeTimeline(await store.readStream(traineeStreamId(ID)));
    const out = new Collected(256);
    await writeTimeline(asStored(store), ID, 'json', out, { chunkSize: 10 });
    await out.finished();
    expect(out.writes).toHaveLength(25);
    // Each chunk was written once the one before had drained: never more than a chunk waited.
    const largest = Math.max(...out.writes.map((w) => w.length));
    expect(out.mostBuffered).toBeLessThanOrEqual(largest);
    expect(out.text.length).toBeGreaterThan(10 * largest);
    expect(out.text).toBe(whole.map((e) => `${JSON.stringify(e)}\n`).join(''));
  });

  it('returns once the last chunk has reached the output, not when it is only queued (the CLI exits then)', async () => {
    const whole = wholeTimeline(await store.readStream(traineeStreamId(ID)));
    // A buffer that never asks to wait: only the last write's own callback shows when everything went out.
    const out = new Collected();
    await writeTimeline(asStored(store), ID, 'json', out, { chunkSize: 10 });
    expect(out.writes).toHaveLength(25);
    expect(out.text).toBe(whole.map((e) => `${JSON.stringify(e)}\n`).join(''));
  });

  it('refuses an unknown trainee before writing, and resolves an id in another case', async () => {
    const out = new Collected();
    await expect(writeTimeline(asStored(store), 'nobody', 'table', out)).rejects.toThrow(new AuditRefused('No trainee with id nobody'));
    expect(out.writes).toEqual([]);
    const lower = new Collected();
    const resolveId = async (id: string) => (id.toLowerCase() === ID.toLowerCase() ? ID : null);
    expect(await writeTimeline(asStored(store), ID.toLowerCase(), 'json', lower, { resolveId })).toBe(250);
  });
});
