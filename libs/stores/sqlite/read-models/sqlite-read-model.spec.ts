import Database from 'better-sqlite3';
import { API_VERSIONS } from '@app/trainees/record';
import { commandFromWire, contractFor } from '@app/trainees/contract';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import v2025Example from '../../../../test/fixtures/post-trainee-v2025.0.json';
import { decide, decodeTraineeEvent, evolveAll, type TraineeEvent, traineeStreamId } from '@app/trainees/decider';
import { providerStreamId } from '@app/providers/decider';
import { toEventData } from '@app/event-sourcing';
import { type EventStore, newEventId, type RecordedEvent } from '@app/event-sourcing';
import { SqliteEventStore } from '../event-log/sqlite-event-store';
import { Projector } from '@app/runtime/projector';
import { measureLag } from '@app/runtime/projector';
import { rebuildProjection } from '@app/runtime/rebuild';
import { PROJECTION_VERSIONS } from '@app/runtime/projector';
import { SqliteReadModel } from './sqlite-read-model';

/** The served trainee store of this code's version. */
const V = `v${PROJECTION_VERSIONS.trainees}`;
/** Code of the trainee projection's first version: the layout from before projections were versioned one by one. */
const LEGACY = { codeVersions: { trainees: 1 } };

const silent = { error: () => undefined, warn: () => undefined };

function registrationEvents(id: string, n: number): TraineeEvent[] {
  const input = { ...JSON.parse(JSON.stringify(v2025Example.data)), first_names: `Name${n}`, email: `p${n}@example.com` };
  return decide(
    commandFromWire({
      type: 'RegisterTrainee',
      trainee_id: id,
      ukprn: '10000001',
      version: 'v2025.0',
      input,
      now: `2026-01-01T00:00:${String(n % 60).padStart(2, '0')}.000Z`,
      new_ids: [`P${n}`, `D${n}`],
      duplicate_candidates: [],
    }),
    { exists: false },
  );
}

async function writeHistory(store: EventStore, trainees: number, updatesEach: number): Promise<void> {
  for (let i = 0; i < trainees; i++) {
    const id = `T${i}`;
    const events = registrationEvents(id, i);
    await store.appendToStream(traineeStreamId(id), toEventData(events, { occurredAt: '2026-01-01T00:00:00.000Z' }, newEventId), {
      expectedRevision: 'no_stream',
    });
    let state = evolveAll(events);
    for (let u = 0; u < updatesEach; u++) {
      const changes = decide(
        commandFromWire({
          type: 'UpdateTrainee',
          trainee_id: id,
          ukprn: '10000001',
          version: 'v2025.0',
          input: { middle_names: `M${u}` },
          now: `2026-02-0${(u % 9) + 1}T00:00:00.000Z`,
        }),
        state,
      );
      state = evolveAll(changes, state);
      await store.appendToStream(traineeStreamId(id), toEventData(changes, { occurredAt: '2026-02-01T00:00:00.000Z' }, newEventId));
    }
  }
}

function allDocs(rm: SqliteReadModel, n: number): Promise<unknown[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => rm.getTrainee(`T${i}`)));
}

/** Every version's stored answer of trainees T0…T(n-1), as strings. */
async function allAnswers(rm: SqliteReadModel, n: number): Promise<(string | undefined)[]> {
  const ids = Array.from({ length: n }, (_, i) => `T${i}`);
  const answers = await Promise.all(API_VERSIONS.flatMap((v) => ids.map((id) => rm.getTraineeAnswer(id, v))));
  return answers.map((a) => a?.body.toString());
}

/** The change feed of the provider of writeHistory's trainees, whole (docs/change-feed.md). */
async function allChanges(rm: SqliteReadModel): Promise<unknown[]> {
  const feed = await rm.listChanges('10000001', 0, 1_000_000);
  if (feed === null) throw new Error('the store has no change feed');
  return feed;
}

let dir: string;
let store: SqliteEventStore;

/** Gives each test of the calling describe a fresh temporary directory (`dir`) and SQLite event store (`store`). */
function useFreshEventStore(): void {
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'read-model-'));
    store = new SqliteEventStore({ filename: join(dir, 'events.sqlite') });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
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

/** Both ways a stream phase runs: batch by batch in this thread (a short log), and in a worker thread. */
const STREAM_PHASES = [
  ['in this thread', {}],
  ['in a worker thread', { workerFromPosition: 0 }],
] as const;

describe.each(STREAM_PHASES)('A rebuild stream by stream, %s (docs/architecture.md "Rebuilding by stream")', (_, options) => {
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
    const history = (await store.readStream(traineeStreamId('T0'))).map((e) => decodeTraineeEvent(e)!);
    const late = decide(
      commandFromWire({
        type: 'UpdateTrainee',
        trainee_id: 'T0',
        ukprn: '10000001',
        version: 'v2025.0',
        input: { middle_names: 'Late' },
        now: '2026-03-01T00:00:00.000Z',
      }),
      evolveAll(history),
    );
    expect(late.length).toBeGreaterThan(0);
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

describe.each(STREAM_PHASES)(
  'The first catch-up of an empty store, stream by stream, %s (docs/architecture.md "Rebuilding by stream")',
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
      const built = new SqliteReadModel(join(dir, 'built.sqlite'), options);
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
      // Not empty any more: the next catch-up reads the log in position order.
      expect(await built.initialStreamBuild()).toBeNull();
      built.close();
      stepwise.close();
    });
  },
);

describe('Stored answer bytes (docs/DESIGN.md "Answers stored as bytes")', () => {
  useFreshEventStore();
  const query = { ukprn: '10000001', academicCycle: 2025, page: 1, perPage: 50, sortOrder: 'asc' as const, today: '2026-01-01' };

  /** Two trainees (T0, T1) projected into `rm.sqlite`, and a raw connection to it. */
  async function projected(): Promise<{ rm: SqliteReadModel; raw: Database.Database }> {
    await writeHistory(store, 2, 1);
    const rm = new SqliteReadModel(join(dir, 'rm.sqlite'));
    await rm.applyBatch(await store.readAll({ maxCount: 1000 }));
    return { rm, raw: new Database(join(dir, 'rm.sqlite')) };
  }

  it('sends the bytes stored at the last change (not a rendering per read), and renders when the store is of another projection version', async () => {
    const { rm, raw } = await projected();
    raw.prepare(`UPDATE trainee_answers_${V} SET body = ?, item_end = 11 WHERE version = 'v2025.0'`).run(Buffer.from('{"stored":1,"x":2}'));
    expect((await rm.getTraineeAnswer('t1', 'v2025.0'))?.body.toString()).toBe('{"stored":1,"x":2}');
    expect((await rm.listTraineeAnswers(query, 'v2025.0')).items.map(String)).toEqual(['{"stored":1}', '{"stored":1}']);

    const newer = new SqliteReadModel(join(dir, 'rm.sqlite'), { codeVersions: { trainees: PROJECTION_VERSIONS.trainees + 1 } });
    const trainee = (await newer.getTrainee('T1'))!;
    expect((await newer.getTraineeAnswer('T1', 'v2025.0'))?.body.toString()).toBe(
      JSON.stringify(contractFor('v2025.0').output.serializeTrainee(trainee, { nested: true })),
    );
    expect((await newer.listTraineeAnswers(query, 'v2025.0')).items.map(String)).not.toContain('{"stored":1}');
    for (const c of [rm, newer, raw]) c.close();
  });

  it('keeps the unfiltered total_count per provider and cycle with every row change, and counts a store that had none', async () => {
    const { rm, raw } = await projected();
    const counts = () => raw.prepare(`SELECT ukprn, start_cycle, n FROM trainee_counts_${V} WHERE n <> 0 ORDER BY 1, 2`).raw().all();
    const truth = () => raw.prepare(`SELECT ukprn, start_cycle, COUNT(*) FROM trainees_${V} GROUP BY 1, 2 ORDER BY 1, 2`).raw().all();
    expect(counts()).toEqual([['10000001', 2025, 2]]);
    expect((await rm.listTraineeAnswers(query, 'v2025.0')).totalCount).toBe(2);
    raw.exec(`UPDATE trainees_${V} SET start_cycle = 2026 WHERE trainee_id = 'T0'`);
    raw.exec(`UPDATE trainees_${V} SET state = 'deferred' WHERE trainee_id = 'T1'`);
    expect(counts()).toEqual(truth());
    expect(counts()).toEqual([
      ['10000001', 2025, 1],
      ['10000001', 2026, 1],
    ]);
    expect((await rm.listTraineeAnswers(query, 'v2025.0')).totalCount).toBe(1);
    expect((await rm.listTraineeAnswers({ ...query, academicCycle: 2027 }, 'v2025.0')).totalCount).toBe(0);
    raw.exec(`DELETE FROM trainees_${V} WHERE trainee_id = 'T1'`);
    expect(counts()).toEqual(truth());
    rm.close();
    // A store from before the counts: no table, no triggers.
    raw.exec(`DROP TRIGGER trainees_${V}_counted; DROP TRIGGER trainees_${V}_recounted; DROP TRIGGER trainees_${V}_uncounted;
      DROP TABLE trainee_counts_${V}`);
    raw.exec(`INSERT INTO trainees_${V} SELECT seq + 1000, 'T9', 't9', ukprn, start_cycle, state, itt_start_date, has_trn, updated_at,
      date_of_birth, training_route, last_name_key, revision, doc FROM trainees_${V} WHERE trainee_id = 'T0'`);
    const reopened = new SqliteReadModel(join(dir, 'rm.sqlite'));
    expect(counts()).toEqual([['10000001', 2026, 2]]);
    expect((await reopened.listTraineeAnswers({ ...query, academicCycle: 2026 }, 'v2025.0')).totalCount).toBe(2);
    for (const c of [reopened, raw]) c.close();
  });

  it('renders the answer of a trainee whose answers are not stored (a store written before they were)', async () => {
    const { rm, raw } = await projected();
    const before = await allAnswers(rm, 2);
    const items = (await rm.listTraineeAnswers(query, 'v2026.1')).items.map(String);
    raw.exec(`DELETE FROM trainee_answers_${V}`);
    expect(await allAnswers(rm, 2)).toEqual(before);
    expect((await rm.listTraineeAnswers(query, 'v2026.1')).items.map(String)).toEqual(items);
    expect(items.map((i) => JSON.parse(i).trainee_id).sort()).toEqual(['T0', 'T1']);
    for (const c of [rm, raw]) c.close();
  });
});

describe('The projector on SqliteReadModel', () => {
  useFreshEventStore();

  it('projects live, lets a writer wait for its position, and resumes from the checkpoint after a restart without repeating', async () => {
    const rm = new SqliteReadModel(join(dir, 'rm.sqlite'));
    const applied: number[] = [];
    const counting = {
      checkpoint: () => rm.checkpoint(),
      applyBatch: async (batch: RecordedEvent[]) => {
        applied.push(...batch.map((e) => e.position));
        await rm.applyBatch(batch);
      },
    };
    const first = new Projector(store, counting, silent);
    await first.start();
    const events = registrationEvents('T0', 0);
    const result = await store.appendToStream(
      traineeStreamId('T0'),
      toEventData(events, { occurredAt: '2026-01-01T00:00:00.000Z' }, newEventId),
    );
    await expect(first.waitFor(result.position)).resolves.toBe(true);
    expect(await rm.getTrainee('T0')).not.toBeNull();
    await first.stop();

    const more = registrationEvents('T1', 1);
    const second = await store.appendToStream(
      traineeStreamId('T1'),
      toEventData(more, { occurredAt: '2026-01-01T00:00:00.000Z' }, newEventId),
    );
    const restarted = new Projector(store, counting, silent);
    await restarted.start();
    await expect(restarted.waitFor(second.position)).resolves.toBe(true);
    await restarted.stop();
    expect(new Set(applied).size).toBe(applied.length);
    expect(applied).toEqual([...applied].sort((a, b) => a - b));
    expect(await rm.getTrainee('t1')).toMatchObject({ trainee_id: 'T1' });
    rm.close();
  });

  it('retries a failing batch instead of skipping it, and logs the error', async () => {
    const rm = new SqliteReadModel(join(dir, 'rm.sqlite'));
    let failures = 2;
    const errors: string[] = [];
    const flaky = {
      checkpoint: () => rm.checkpoint(),
      applyBatch: async (batch: RecordedEvent[]) => {
        if (failures-- > 0) throw new Error('disk hiccup');
        await rm.applyBatch(batch);
      },
    };
    const projector = new Projector(store, flaky, { error: (m) => errors.push(m), warn: () => undefined }, { retryDelayMs: 5 });
    await projector.start();
    const r = await store.appendToStream(
      traineeStreamId('T0'),
      toEventData(registrationEvents('T0', 0), { occurredAt: '2026-01-01T00:00:00.000Z' }, newEventId),
    );
    await expect(projector.waitFor(r.position)).resolves.toBe(true);
    // The failing batch is applied again event by event: the event's one failure is logged.
    expect(errors).toEqual(['projection of an event failed; retrying']);
    expect(await rm.getTrainee('T0')).not.toBeNull();
    await projector.stop();
    rm.close();
  });
});

describe.each(STREAM_PHASES)('Parked events on SqliteReadModel, a first stream phase %s (issue 12, "Honest health")', (_, options) => {
  useFreshEventStore();

  async function register(id: string, n: number): Promise<void> {
    const events = toEventData(registrationEvents(id, n), { occurredAt: '2026-01-01T00:00:00.000Z' }, newEventId);
    await store.appendToStream(traineeStreamId(id), events, { expectedRevision: 'no_stream' });
  }

  it('parks a poisoned event and the rest of its stream, serves the others, and keeps the records across reopening', async () => {
    await register('T0', 0);
    // A registration the trainee projection cannot fold (no trainee in it), then another event of that stream.
    const poison = { type: 'TraineeRegistered', data: {}, metadata: { occurredAt: '2026-01-01T00:00:00.000Z', schemaVersion: 1 } };
    await store.appendToStream('trainee-X', [{ ...poison, id: newEventId() }]);
    await store.appendToStream('trainee-X', [{ ...poison, type: 'TraineeUpdated', id: newEventId() }]);
    await register('T2', 2);
    const rm = new SqliteReadModel(join(dir, 'rm.sqlite'), options);
    const warnings: string[] = [];
    const projector = new Projector(store, rm, { ...silent, warn: (m) => warnings.push(m) }, { retryDelayMs: 1, maxAttempts: 2 });
    const head = await store.headPosition();
    expect(await projector.catchUp()).toBe(head);
    expect(await rm.checkpoint()).toBe(head);
    // The stream phase failed on it and left it to the position-order catch-up, which parked it.
    expect(warnings[0]).toMatch(/stream by stream failed/);
    // The indexes it set aside for bulk writing are back.
    const raw = new Database(join(dir, 'rm.sqlite'), { readonly: true });
    const indexes = raw.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'trainees_${V}' AND sql IS NOT NULL`);
    expect(indexes.pluck().all().sort()).toEqual([`trainees_${V}_duplicates`, `trainees_${V}_list`, `trainees_${V}_status`]);
    raw.close();
    const parked = await rm.parkedEvents();
    expect(parked.map((p) => [p.stream_id, p.revision, p.type, p.attempts])).toEqual([
      ['trainee-X', 0, 'TraineeRegistered', 2],
      ['trainee-X', 1, 'TraineeUpdated', 0],
    ]);
    expect(parked[0]).toMatchObject({ projection: 'trainees', error: expect.stringMatching(/TypeError|Cannot read/) });
    expect(await rm.getTrainee('T0')).toMatchObject({ trainee_id: 'T0' });
    expect(await rm.getTrainee('T2')).toMatchObject({ trainee_id: 'T2' });
    // Parking again is idempotent; the record survives reopening the store.
    await rm.parkEvent({ ...parked[0], error: 'another message' });
    rm.close();
    const reopened = new SqliteReadModel(join(dir, 'rm.sqlite'), options);
    expect(await reopened.parkedEvents()).toEqual(parked);
    // A rebuild of the providers projection keeps them; the trainees' rebuild fails on the same event,
    // is not swapped in, and they stay.
    await rebuildProjection(store, reopened, 'providers', {});
    expect(await reopened.parkedEvents()).toEqual(parked);
    await expect(rebuildProjection(store, reopened, 'trainees', {})).rejects.toThrow();
    expect(await reopened.parkedEvents()).toEqual(parked);
    reopened.close();
  });

  it('forgets the parked events of a projection once a rebuild of it is swapped in', async () => {
    await register('T0', 0);
    const rm = new SqliteReadModel(join(dir, 'rm.sqlite'));
    const [event] = await store.readAll({ maxCount: 1 });
    const record = { projection: 'trainees' as const, stream_id: event.streamId, revision: 0, type: event.type, position: event.position };
    await rm.parkEvent({ ...record, error: 'a bug since fixed', attempts: 5, parked_at: '2026-05-01T00:00:00.000Z' });
    await rm.parkEvent({
      ...record,
      projection: 'providers',
      position: 99,
      error: 'x',
      attempts: 5,
      parked_at: '2026-05-01T00:00:00.000Z',
    });
    expect(await rm.checkpoint()).toBe(99);
    await rebuildProjection(store, rm, 'trainees', {});
    expect((await rm.parkedEvents()).map((p) => p.projection)).toEqual(['providers']);
    expect(await rm.getTrainee('T0')).toMatchObject({ trainee_id: 'T0' });
    rm.close();
  });
});

describe('measureLag', () => {
  it('counts the projected events after a checkpoint and the age of the oldest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lag-'));
    const store = new SqliteEventStore({ filename: join(dir, 'events.sqlite') });
    const tenSecondsAgo = new Date(Date.now() - 10_000).toISOString();
    const events = registrationEvents('T0', 0);
    await store.appendToStream(traineeStreamId('T0'), toEventData(events, { occurredAt: tenSecondsAgo }, newEventId));
    await store.appendToStream(
      'registrationguard-x',
      toEventData(
        [{ type: 'RegistrationClaimed', data: { trainee_id: 'T0', at: tenSecondsAgo } }],
        { occurredAt: tenSecondsAgo },
        newEventId,
      ),
    );
    const now = new Date(Date.parse(tenSecondsAgo) + 10_000);
    expect(await measureLag(store, 0, now)).toEqual({ checkpoint: 0, events: events.length, atLeast: false, seconds: 10 });
    const head = await store.headPosition();
    expect(await measureLag(store, head, now)).toEqual({ checkpoint: head, events: 0, atLeast: false, seconds: 0 });
    expect((await measureLag(store, 0, now, 2)).atLeast).toBe(true);
    // Caught up, it reads only the head; behind, at most cap + 1 events (issue 16, row 4).
    const readAll = jest.spyOn(store, 'readAll');
    await measureLag(store, head, now);
    expect(readAll).not.toHaveBeenCalled();
    await measureLag(store, 0, now, 2);
    expect(readAll.mock.calls.map(([options]) => options?.maxCount)).toEqual([3]);
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('reading events of an older schema', () => {
  it('projects a stored PlacementAdded v1 as v2 and leaves the stored event as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'upcast-'));
    const store = new SqliteEventStore({ filename: join(dir, 'events.sqlite') });
    const events = registrationEvents('T0', 0);
    const data = toEventData(events, { occurredAt: '2026-01-01T00:00:00.000Z' }, newEventId);
    // Write the placement as a build before the schools directory did: schema 1, no school_id.
    const placement = data.find((e) => e.type === 'PlacementAdded')!;
    const { school_id: _s, ...oldPlacement } = (placement.data as { placement: Record<string, unknown> }).placement;
    placement.data = { ...(placement.data as object), placement: { ...oldPlacement, address: 'URN 900020' } };
    placement.metadata = { ...placement.metadata, schemaVersion: 1 };
    await store.appendToStream(traineeStreamId('T0'), data);
    const rm = new SqliteReadModel(join(dir, 'rm.sqlite'));
    await new Projector(store, rm, silent).catchUp();
    expect((await rm.getTrainee('T0'))?.placements[0]).toMatchObject({ school_id: null, address: null, urn: '900020' });
    const stored = (await store.readStream(traineeStreamId('T0'))).find((e) => e.type === 'PlacementAdded')!;
    expect(stored.metadata.schemaVersion).toBe(1);
    expect((stored.data as { placement: object }).placement).not.toHaveProperty('school_id');
    rm.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('a data dir from before projections were versioned one by one', () => {
  it('is adopted once: rebuilding twice after a restart rebuilds every document', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'legacy-'));
    const store = new SqliteEventStore({ filename: join(dir, 'events.sqlite') });
    await writeHistory(store, 3, 1);
    const file = join(dir, 'rm.sqlite');
    // The old layout: tables `*_v1` and one checkpoint `main_v1`.
    const first = new SqliteReadModel(file, LEGACY);
    await first.applyBatch(await store.readAll({ maxCount: 10_000 }));
    first.close();
    const Database = (await import('better-sqlite3')).default;
    const raw = new Database(file);
    const head = await store.headPosition();
    raw.exec(`DROP TABLE projection_registry; DELETE FROM projection_checkpoints;`);
    raw.prepare(`INSERT INTO projection_checkpoints (name, position, version, updated_at) VALUES ('main_v1', ?, 1, 'x')`).run(head);
    raw.close();

    let rm = new SqliteReadModel(file, LEGACY);
    // A store of version 1 holds no whole change feed (docs/change-feed.md "Upgrading").
    expect(await rm.listChanges('10000001', 0, 10)).toBeNull();
    expect((await rm.projectionInfo()).find((p) => p.name === 'trainees')).toMatchObject({ store: 'v1', checkpoint: head, documents: 3 });
    await rebuildProjection(store, rm, 'trainees');
    rm.close();
    rm = new SqliteReadModel(file, LEGACY);
    const again = await rebuildProjection(store, rm, 'trainees');
    expect(again.store).toBe('v1');
    expect((await rm.projectionInfo()).find((p) => p.name === 'trainees')).toMatchObject({ store: 'v1', documents: 3 });
    expect(await rm.getTrainee('T2')).not.toBeNull();
    rm.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('a tokens table from before tokens expired', () => {
  it('gains expires_at and last_used_at when opened, answers as a rebuild does, and keeps later uses', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tokens-'));
    const store = new SqliteEventStore({ filename: join(dir, 'events.sqlite') });
    const ukprn = '10000003';
    const at = '2026-01-02T09:00:00.000Z';
    const old = toEventData([{ type: 'ProviderRegistered', data: { ukprn, name: 'Old SCITT', at } }], { occurredAt: at }, newEventId);
    // A token issued by a build before expiry: TokenIssued of schema 1, without expires_at.
    const issue = {
      id: newEventId(),
      type: 'TokenIssued',
      data: { ukprn, token_id: 'K1', token_hash: 'a'.repeat(64), at },
      metadata: { schemaVersion: 1, occurredAt: at },
    };
    await store.appendToStream(providerStreamId(ukprn), [...old, issue]);
    const file = join(dir, 'rm.sqlite');
    let rm = new SqliteReadModel(file);
    await new Projector(store, rm, silent).catchUp();
    rm.close();
    const Database = (await import('better-sqlite3')).default;
    const raw = new Database(file);
    const table = raw.prepare<[], { name: string }>(`SELECT name FROM sqlite_master WHERE name LIKE 'tokens_%' AND type = 'table'`).get()!
      .name;
    raw.exec(`ALTER TABLE ${table} DROP COLUMN expires_at; ALTER TABLE ${table} DROP COLUMN last_used_at`);
    raw.close();

    rm = new SqliteReadModel(file);
    const legacy = await rm.listTokens(ukprn);
    expect(legacy).toEqual([
      { token_id: 'K1', ukprn, status: 'active', issued_at: at, revoked_at: null, expires_at: null, last_used_at: null },
    ]);
    await rebuildProjection(store, rm, 'providers');
    expect(await rm.listTokens(ukprn)).toEqual(legacy);
    const use = { ukprn, token_id: 'K1', on: '2026-01-03', at: '2026-01-03T10:00:00.000Z' };
    await store.appendToStream(
      providerStreamId(ukprn),
      toEventData([{ type: 'TokenUsed', data: use }], { occurredAt: use.at }, newEventId),
    );
    await new Projector(store, rm, silent).catchUp();
    expect(await rm.getToken('K1')).toMatchObject({ expires_at: null, last_used_at: use.at });
    rm.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
