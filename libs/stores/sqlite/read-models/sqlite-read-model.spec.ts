/**
 * The SQLite read model applying batches: idempotent redelivery, the same documents event by event
 * as in one batch, and the stream-by-stream build (a rebuild, and the first catch-up of an empty
 * store) in this thread and in a worker thread.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { traineeStreamId } from '@app/trainees/decider';
import { traineeUpdated } from '@app/trainees/decider/testing/trainee-events';
import { providerStreamId } from '@app/providers/decider';
import { newEventId, toEventData } from '@app/event-sourcing';
import { Projector } from '@app/runtime/projector';
import { rebuildProjection } from '@app/runtime/rebuild';
import type { SqliteEventStore } from '../event-log/sqlite-event-store';
import { SqliteReadModel } from './sqlite-read-model';
import { TraineeTables } from './trainee-tables';
import {
  allAnswers,
  allChanges,
  allDocs,
  closeFreshEventStore,
  openFreshEventStore,
  silent,
  STREAM_PHASES,
  V,
  writeHistory,
} from './testing/read-model-histories';

let dir: string;
let store: SqliteEventStore;

/** Gives each test of the calling describe a fresh temporary directory (`dir`) and SQLite event store (`store`). */
function useFreshEventStore(): void {
  beforeEach(() => {
    ({ dir, store } = openFreshEventStore());
  });
  afterEach(() => closeFreshEventStore({ dir, store }));
}

describe('SqliteReadModel.applyBatch', () => {
  useFreshEventStore();

  it('applies a batch idempotently: redelivering events changes nothing (docs/DESIGN.md "Read models")', async () => {
    await writeHistory(store, 3, 2);
    const events = await store.readAll({ maxCount: 10_000 });
    const rm = new SqliteReadModel(join(dir, 'rm.sqlite'));
    await rm.applyBatch(events);
    const once = await allDocs(rm, 3);
    await rm.applyBatch(events);
    await rm.applyBatch(events.slice(2, 7));
    expect(await allDocs(rm, 3)).toEqual(once);
    expect(await rm.checkpoint()).toBe(events[events.length - 1].position);
    expect(once[1]).toMatchObject({ trainee_id: 'T1', details: { middle_names: 'M1' }, state: 'submitted_for_trn' });
    rm.close();
  });

  it('builds the same documents event by event as in one rebuild (docs/DESIGN.md property 5)', async () => {
    await writeHistory(store, 40, 3);
    const events = await store.readAll({ maxCount: 100_000 });
    const live = new SqliteReadModel(join(dir, 'live.sqlite'));
    for (const e of events) await live.applyBatch([e]);
    const rebuilt = new SqliteReadModel(join(dir, 'rebuilt.sqlite'));
    await rebuilt.applyBatch(events);
    expect(await allDocs(rebuilt, 40)).toEqual(await allDocs(live, 40));
    expect(await allAnswers(rebuilt, 40)).toEqual(await allAnswers(live, 40));
    const feed = await allChanges(live);
    expect(feed).toHaveLength(events.length);
    expect(await allChanges(rebuilt)).toEqual(feed);
    live.close();
    rebuilt.close();
  });
});

describe.each(STREAM_PHASES)('A rebuild stream by stream, %s (docs/DESIGN.md "Rebuilding by stream")', (_, options) => {
  useFreshEventStore();

  it('builds the documents and answers the live projector built, resumes an interrupted stream phase, and catches up past its snapshot', async () => {
    await writeHistory(store, 30, 2);
    const live = new SqliteReadModel(join(dir, 'rm.sqlite'), options);
    await new Projector(store, live, silent).catchUp();
    const liveDocs = await allDocs(live, 30);
    const liveAnswers = await allAnswers(live, 30);

    // Stop after the first batch of streams (batches of 20 events: a few trainees each).
    const phases: string[] = [];
    let batches = 0;
    const first = await rebuildProjection(store, live, 'trainees', {
      batchSize: 20,
      shouldStop: () => batches >= 1,
      onProgress: ({ phase }) => {
        phases.push(phase);
        batches++;
      },
    });
    expect(first).toMatchObject({ interrupted: true, store: `${V}_g2` });
    expect(phases).toEqual(['streams']);
    const raw = new Database(join(dir, 'rm.sqlite'));
    const builtFirst = raw.prepare<[], string>(`SELECT trainee_id FROM trainees_${V}_g2 ORDER BY trainee_id`).pluck().all();
    expect(builtFirst.length).toBeGreaterThan(0);
    expect(builtFirst.length).toBeLessThan(30);
    expect(raw.prepare(`SELECT last_stream FROM projection_rebuild_cursors`).pluck().get()).toBe(traineeStreamId(builtFirst.at(-1)!));

    // Written after the stream phase's snapshot: the log phase applies it on top of the built document.
    const late = [traineeUpdated({ trainee_id: 'T0', changes: { middle_names: 'Late' }, at: '2026-03-01T00:00:00.000Z' })];
    await store.appendToStream(traineeStreamId('T0'), toEventData(late, { occurredAt: '2026-03-01T00:00:00.000Z' }, newEventId));
    await new Projector(store, live, silent).catchUp();

    const resumed = await rebuildProjection(store, live, 'trainees', { batchSize: 20 });
    expect(resumed).toMatchObject({ interrupted: false, store: `${V}_g2`, previous: V, dropped: true });
    expect(raw.prepare(`SELECT COUNT(*) FROM projection_rebuild_cursors`).pluck().get()).toBe(0);
    raw.close();
    const rebuiltDocs = await allDocs(live, 30);
    expect(rebuiltDocs[0]).toMatchObject({ details: { middle_names: 'Late' } });
    expect(rebuiltDocs.slice(1)).toEqual(liveDocs.slice(1));
    expect(rebuiltDocs[0]).not.toEqual(liveDocs[0]);
    const fresh = new SqliteReadModel(join(dir, 'fresh.sqlite'));
    await new Projector(store, fresh, silent).catchUp();
    expect(rebuiltDocs).toEqual(await allDocs(fresh, 30));
    expect(await allAnswers(live, 30)).toEqual(await allAnswers(fresh, 30));
    expect(await allChanges(live)).toEqual(await allChanges(fresh));
    const traineeEvents = (await store.readAll({ maxCount: 100_000 })).filter((e) => e.streamId.startsWith('trainee-'));
    expect((await allChanges(live)).map((c) => (c as { position: number }).position)).toEqual(traineeEvents.map((e) => e.position));
    const unchanged = (answers: (string | undefined)[]) => answers.filter((_, i) => i % 30 !== 0);
    expect(unchanged(await allAnswers(live, 30))).toEqual(unchanged(liveAnswers));
    live.close();
    fresh.close();
  });
});

describe('The old store after a swap (docs/DESIGN.md "Projection versions and blue/green rebuilds")', () => {
  useFreshEventStore();

  const tablesOf = (raw: Database.Database, store: string) =>
    raw
      .prepare<[string], string>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%\\_' || ? ESCAPE '\\'`)
      .pluck()
      .all(store);

  it('is dropped in slices after the swap, with its checkpoint, and a drop left pending is finished when a projector starts', async () => {
    await writeHistory(store, 20, 2);
    const rm = new SqliteReadModel(join(dir, 'rm.sqlite'));
    await new Projector(store, rm, silent).catchUp();
    const raw = new Database(join(dir, 'rm.sqlite'));
    expect(tablesOf(raw, V).sort()).toEqual([...TraineeTables.tableNames(V)].sort());

    const outcome = await rebuildProjection(store, rm, 'trainees', { batchSize: 50 });
    expect(outcome).toMatchObject({ store: `${V}_g2`, previous: V, dropped: true });
    expect(outcome.dropSeconds).toBeGreaterThan(0);
    expect(outcome.dropSeconds).toBeLessThanOrEqual(outcome.seconds);
    expect(tablesOf(raw, V)).toEqual([]);
    expect(raw.prepare(`SELECT COUNT(*) FROM projection_drops`).pluck().get()).toBe(0);
    expect(raw.prepare(`SELECT COUNT(*) FROM projection_checkpoints WHERE name = ?`).pluck().get(`trainees_${V}`)).toBe(0);
    expect(await allDocs(rm, 20)).toHaveLength(20);

    // A swap whose process stopped before its drop ended: the store is still there, its drop recorded.
    const kept = await rebuildProjection(store, rm, 'trainees', { batchSize: 50, keepOld: true });
    expect(kept).toMatchObject({ previous: `${V}_g2`, dropped: false, dropSeconds: 0 });
    raw.prepare(`INSERT INTO projection_drops (projection, store, requested_at) VALUES ('trainees', ?, '')`).run(`${V}_g2`);
    const projector = new Projector(store, rm, silent);
    await projector.start();
    const pending = () => raw.prepare(`SELECT COUNT(*) FROM projection_drops`).pluck().get();
    for (let i = 0; i < 400 && pending() !== 0; i++) await new Promise((r) => setTimeout(r, 25));
    await projector.stop();
    expect(pending()).toBe(0);
    expect(tablesOf(raw, `${V}_g2`)).toEqual([]);
    expect(await allDocs(rm, 20)).toHaveLength(20);
    raw.close();
    rm.close();
  });
});

describe.each(STREAM_PHASES)(
  'The first catch-up of an empty store, stream by stream, %s (docs/DESIGN.md "Rebuilding by stream")',
  (_, options) => {
    useFreshEventStore();

    it('builds what event-by-event projection builds, providers included, and leaves both checkpoints at the head', async () => {
      await writeHistory(store, 12, 2);
      const at = '2026-01-02T09:00:00.000Z';
      const provider = toEventData(
        [{ type: 'ProviderRegistered', data: { ukprn: '10000001', name: 'A SCITT', at } }],
        { occurredAt: at },
        newEventId,
      );
      await store.appendToStream(providerStreamId('10000001'), provider);
      const events = await store.readAll({ maxCount: 100_000 });
      const stepwise = new SqliteReadModel(join(dir, 'stepwise.sqlite'));
      for (const e of events) await stepwise.applyBatch([e]);

      const readAll = jest.spyOn(store, 'readAll');
      const built = new SqliteReadModel(join(dir, 'built.sqlite'), { ...options, walAutocheckpointPages: 4321 });
      const warnings: string[] = [];
      const projector = new Projector(store, built, { error: () => undefined, warn: (m) => warnings.push(m) });
      expect(await projector.catchUp()).toBe(await store.headPosition());
      // No trainee event was read in position order: only the provider streams, and nothing after the head.
      const head = await store.headPosition();
      for (const [o] of readAll.mock.calls)
        expect(o?.filter?.streamPrefixes?.join() === 'provider-' || (o?.fromPosition ?? 0) >= head).toBe(true);
      expect(readAll).toHaveBeenCalled();
      expect(warnings).toEqual([]);
      expect(projector.eventsApplied).toBe(events.length);
      expect(await built.checkpoint()).toBe(await store.headPosition());
      expect((await built.projectionInfo()).map((p) => p.checkpoint)).toEqual([events.at(-1)!.position, events.at(-1)!.position]);
      expect(await allDocs(built, 12)).toEqual(await allDocs(stepwise, 12));
      expect(await allAnswers(built, 12)).toEqual(await allAnswers(stepwise, 12));
      expect(await allChanges(built)).toEqual(await allChanges(stepwise));
      expect(await allChanges(built)).toHaveLength(events.length - 1);
      expect(await built.listProviders()).toEqual(await stepwise.listProviders());
      expect(await built.listProviders()).toHaveLength(1);
      // The phase wrote in bulk with a larger WAL auto-checkpoint and gave the connection its own one back.
      expect(
        (built as unknown as { view: { db: { pragma(s: string, o: object): unknown } } }).view.db.pragma('wal_autocheckpoint', {
          simple: true,
        }),
      ).toBe(4321);
      // Not empty any more: the next catch-up reads the log in position order.
      expect(await built.initialStreamBuild()).toBeNull();
      built.close();
      stepwise.close();
    });
  },
);
