import { mkdtempSync, rmSync } from 'node:fs';
import { fixedKeySource } from '@app/keys';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TraineeEvent, traineeStreamId } from '@app/trainees/decider';
import {
  exampleRegistration,
  placementAdded,
  placementUpdated,
  traineeDeferred,
  traineeUpdated,
  traineeWithdrawn,
  trnIssued,
} from '@app/trainees/decider/testing/trainee-events';
import { newEventId, toEventData, type StoredLog } from '@app/event-sourcing';
import { SqliteEventStore } from '@app/stores/sqlite';
import {
  readTimelinePage,
  TIMELINE_START,
  timelineChunks,
  traineeStreamOf,
  type TimelinePage,
  type TimelineSource,
} from './timeline-pages';
import { traineeTimelinePage, type TimelineEntry } from './trainee-history';
import { eventHash, readChainKeys } from '@app/event-sourcing';
import { withPersonalData } from '@app/personal-data';
import { sqlitePersonalData } from '@app/stores/sqlite';
import { randomBytes } from 'node:crypto';

const UKPRN = '10000001';
const ID = 'T1';

/** `2026-01-05T10:00:00.000Z` plus `seconds`. */
const at = (seconds: number) => new Date(Date.parse('2026-01-05T10:00:00.000Z') + seconds * 1000).toISOString();

/**
 * The stream of trainee T1: registered (4 events, the last its submission for a TRN), 20 updates,
 * a placement added then renamed, deferred, then a TRN issued (which leaves a deferred trainee
 * deferred), then withdrawn: 29 events.
 */
function history(): TraineeEvent[] {
  const events: TraineeEvent[] = [...exampleRegistration({ trainee_id: ID, ukprn: UKPRN, at: at(0) })];
  for (let i = 1; i <= 20; i++) events.push(traineeUpdated({ trainee_id: ID, changes: { middle_names: `M${i}` }, at: at(i) }));
  const placement = { placement_id: 'P2', name: 'Fir School', created_at: at(30), updated_at: at(30) };
  events.push(placementAdded({ trainee_id: ID, at: at(30), placement }));
  events.push(placementUpdated({ trainee_id: ID, at: at(31), placement: { ...placement, name: 'Fir Academy', updated_at: at(31) } }));
  events.push(traineeDeferred({ trainee_id: ID, defer_date: '2026-01-05', defer_reason: null, at: at(40) }));
  events.push(trnIssued({ trainee_id: ID, trn: '4830275', at: at(50) }));
  events.push(traineeWithdrawn({ trainee_id: ID, at: at(60) }));
  return events;
}

/** A log in the clear as a timeline's source: read as stored, nothing to open. */
const inTheClear = (store: StoredLog): TimelineSource => ({ storedLog: store, openStored: async (events) => events });

/** Every page of T1's timeline of `limit` entries, from the start, following each page's `next`. */
async function allPages(store: StoredLog, limit: number): Promise<TimelinePage[]> {
  const pages: TimelinePage[] = [];
  let from = TIMELINE_START;
  for (;;) {
    const page = await readTimelinePage(inTheClear(store), ID, from, limit);
    pages.push(page);
    if (!page.hasMore) return pages;
    from = page.next;
  }
}

describe('the timeline in pages (docs/operations.md "Trainee history")', () => {
  let dir: string;
  let store: SqliteEventStore;
  let whole: TimelineEntry[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'timeline-pages-'));
    store = new SqliteEventStore({ filename: join(dir, 'events.sqlite'), synchronous: 'normal' });
    const data = toEventData(history(), { occurredAt: at(0), providerUkprn: UKPRN, apiVersion: 'v2025.0' }, newEventId);
    await store.appendToStream(traineeStreamId(ID), data, { expectedRevision: 'no_stream' });
    const events = await store.readStream(traineeStreamId(ID));
    whole = traineeTimelinePage(events, 'none', events).entries;
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the first page, then the following ones to the end, which join into the whole timeline', async () => {
    expect(whole).toHaveLength(29);
    const first = await readTimelinePage(inTheClear(store), ID, TIMELINE_START, 10);
    expect(first.entries).toEqual(whole.slice(0, 10));
    expect(first).toMatchObject({ hasMore: true, next: { revision: 10, status: 'submitted_for_trn' } });

    const pages = await allPages(store, 10);
    expect(pages.map((p) => p.entries.length)).toEqual([10, 10, 9]);
    expect(pages.map((p) => p.hasMore)).toEqual([true, true, false]);
    expect(pages.flatMap((p) => p.entries)).toEqual(whole);
    // The end: no more, and the place after the last event, where a later read starts.
    expect(pages[2].next).toEqual({ revision: 29, status: 'withdrawn' });
    const after = await readTimelinePage(inTheClear(store), ID, pages[2].next, 10);
    expect(after).toEqual({ entries: [], next: pages[2].next, hasMore: false });
  });

  it.each([1, 2, 3, 7, 26, 28, 29, 1000])('gives the same timeline with pages of %i, whatever the boundaries', async (limit) => {
    const pages = await allPages(store, limit);
    expect(pages.flatMap((p) => p.entries)).toEqual(whole);
    expect(pages.every((p) => p.entries.length <= limit)).toBe(true);
    expect(pages.slice(0, -1).every((p) => p.entries.length === limit && p.hasMore)).toBe(true);
  });

  it('carries the lifecycle state across pages: a TRN issued to a deferred trainee leaves its state', async () => {
    // A page that starts at the TRN (revision 27) with the state the deferral left.
    const page = await readTimelinePage(inTheClear(store), ID, { revision: 27, status: 'deferred' }, 1);
    expect(page.entries).toEqual([
      expect.objectContaining({ event_type: 'TrnIssued', changed_fields: ['trn'], changes: { trn: '4830275' } }),
    ]);
    expect(whole[27]).toEqual(page.entries[0]);
    // From a trainee waiting for its TRN, the same event moves the state.
    const moved = await readTimelinePage(inTheClear(store), ID, { revision: 27, status: 'submitted_for_trn' }, 1);
    expect(moved.entries[0].changes).toEqual({ state: 'trn_received', trn: '4830275' });
    // An updated placement shows the whole placement, from its own event alone.
    expect(whole[25].changes).toEqual({
      placements: expect.objectContaining({ placement_id: 'P2', name: 'Fir Academy', updated_at: at(31) }),
    });
  });

  it('reads only the events of the page (one more, to tell whether more follow), wherever it starts', async () => {
    const reads: unknown[] = [];
    const counting = Object.create(store) as StoredLog;
    counting.readStream = async (stream, options) => {
      const events = await store.readStream(stream, options);
      reads.push({ stream, options, read: events.length });
      return events;
    };
    await readTimelinePage(inTheClear(counting), ID, { revision: 20, status: 'submitted_for_trn' }, 5);
    expect(reads).toEqual([{ stream: traineeStreamId(ID), options: { fromRevision: 20, maxCount: 6 }, read: 6 }]);
  });

  it('streams the whole timeline in chunks, and finds the stored stream of an id', async () => {
    const chunks: TimelineEntry[][] = [];
    for await (const chunk of timelineChunks(inTheClear(store), ID, 6)) chunks.push(chunk);
    expect(chunks.map((c) => c.length)).toEqual([6, 6, 6, 6, 5]);
    expect(chunks.flat()).toEqual(whole);
    const none: TimelineEntry[][] = [];
    for await (const chunk of timelineChunks(inTheClear(store), 'nobody', 6)) none.push(chunk);
    expect(none).toEqual([]);

    expect(await traineeStreamOf(store, ID)).toBe(ID);
    expect(await traineeStreamOf(store, 't1')).toBeNull();
    expect(await traineeStreamOf(store, 't1', async (id) => id.toUpperCase())).toBe(ID);
    expect(await traineeStreamOf(store, 'x', async () => 'Y')).toBeNull();
    expect(await traineeStreamOf(store, '')).toBeNull();
  });

  it('refuses a limit below 1 or not an integer, and the store a bad maxCount', async () => {
    await expect(readTimelinePage(inTheClear(store), ID, TIMELINE_START, 0)).rejects.toThrow(RangeError);
    await expect(readTimelinePage(inTheClear(store), ID, TIMELINE_START, 1.5)).rejects.toThrow(RangeError);
    await expect(store.readStream(traineeStreamId(ID), { maxCount: 0 })).rejects.toThrow(RangeError);
    expect(await store.readStream(traineeStreamId(ID), { fromRevision: 26, maxCount: 5 })).toHaveLength(3);
    expect((await store.readStream(traineeStreamId(ID), { fromRevision: 3, maxCount: 2 })).map((e) => e.streamRevision)).toEqual([3, 4]);
  });

  it('shows each event as stored where personal data is sealed: no plain personal value, and texts that make its hash', async () => {
    const sealedDir = mkdtempSync(join(tmpdir(), 'timeline-pages-sealed-'));
    const raw = new SqliteEventStore({ filename: join(sealedDir, 'events.sqlite'), synchronous: 'normal' });
    const { personal, keyStore } = sqlitePersonalData(sealedDir, fixedKeySource(randomBytes(32)));
    try {
      const sealing = withPersonalData(raw, personal);
      const data = toEventData(history(), { occurredAt: at(0), providerUkprn: UKPRN, apiVersion: 'v2025.0' }, newEventId);
      await sealing.appendToStream(traineeStreamId(ID), data, { expectedRevision: 'no_stream' });
      const page = await readTimelinePage({ storedLog: raw, openStored: (events) => personal.open(events) }, ID, TIMELINE_START, 1000);
      // The entries read as stored and opened say what the plain store's say, and their stored form is the sealed one.
      expect(page.entries.map(({ stored_data, stored_metadata, hash, previous_hash, event_id, ...e }) => e)).toEqual(
        whole.map(({ stored_data, stored_metadata, hash, previous_hash, event_id, ...e }) => e),
      );
      expect(page.entries[0].changes.last_name).toBe('Doe');
      expect(page.entries.some((e) => e.stored_data!.includes('Doe'))).toBe(false);
      let previous: string | null = null;
      for (const e of page.entries) {
        expect(e.stream_id).toBe(traineeStreamId(ID));
        const keys = readChainKeys(e.stored_metadata!);
        expect(keys.hash).toBe(e.hash);
        expect(e.event_id).toBe(data[e.revision].id);
        const stored = {
          streamId: e.stream_id!,
          revision: e.revision,
          id: e.event_id!,
          type: e.event_type,
          data: e.stored_data!,
          metadata: e.stored_metadata!,
        };
        expect(eventHash(previous, stored, keys)).toBe(e.hash);
        previous = e.hash;
      }
    } finally {
      await keyStore.close();
      await raw.close();
      rmSync(sealedDir, { recursive: true, force: true });
    }
  });
});
