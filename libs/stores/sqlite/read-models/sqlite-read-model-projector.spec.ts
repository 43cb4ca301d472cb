/**
 * The projector on the SQLite read model: live projection with a writer waiting for its position,
 * restarts, retried batches, an event it cannot apply (never skipped), the events an older version
 * skipped (a rebuild needed until one is swapped in), and the lag it measures.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { traineeStreamId } from '@app/trainees/decider';
import { LOG_START, newEventId, type RecordedEvent, toEventData } from '@app/event-sourcing';
import { measureLag, Projector } from '@app/runtime/projector';
import { rebuildProjection } from '@app/runtime/rebuild';
import { SqliteEventStore } from '../event-log/sqlite-event-store';
import { SqliteReadModel } from './sqlite-read-model';
import { closeFreshEventStore, openFreshEventStore, registrationEvents, silent, STREAM_PHASES, V } from './testing/read-model-histories';

let dir: string;
let store: SqliteEventStore;

/** Gives each test of the calling describe a fresh temporary directory (`dir`) and SQLite event store (`store`). */
function useFreshEventStore(): void {
  beforeEach(() => {
    ({ dir, store } = openFreshEventStore());
  });
  afterEach(() => closeFreshEventStore({ dir, store }));
}

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
    expect(errors).toEqual(['projection of an event failed; retrying it, nothing after it is projected until it applies']);
    expect(await rm.getTrainee('T0')).not.toBeNull();
    await projector.stop();
    rm.close();
  });
});

describe.each(STREAM_PHASES)(
  'An event SqliteReadModel cannot apply, a first stream phase %s (docs/operations.md "Health")',
  (_, options) => {
    useFreshEventStore();

    async function register(id: string, n: number): Promise<void> {
      const events = toEventData(registrationEvents(id, n), { occurredAt: '2026-01-01T00:00:00.000Z' }, newEventId);
      await store.appendToStream(traineeStreamId(id), events, { expectedRevision: 'no_stream' });
    }

    it('is never skipped: the catch-up stops before it, across reopening, and nothing after it is applied', async () => {
      await register('T0', 0);
      const before = await store.headPosition();
      // A registration the trainee projection cannot fold (no trainee in it), then another trainee.
      const poison = { type: 'TraineeRegistered', data: {}, metadata: { occurredAt: '2026-01-01T00:00:00.000Z', schemaVersion: 1 } };
      await store.appendToStream('trainee-X', [{ ...poison, id: newEventId() }]);
      await register('T2', 2);
      const rm = new SqliteReadModel(join(dir, 'rm.sqlite'), options);
      const warnings: string[] = [];
      const projector = new Projector(store, rm, { ...silent, warn: (m) => warnings.push(m) }, { retryDelayMs: 1, catchUpAttempts: 2 });
      expect(await projector.catchUp()).toBe(before);
      expect(await rm.checkpoint()).toBe(before);
      expect(projector.health().failure).toMatchObject({ kind: 'apply', stream_id: 'trainee-X', revision: 0, attempts: 2 });
      expect(projector.health().failure?.message).toMatch(/TypeError|Cannot read|undefined/);
      // The stream phase failed on it and left it to the position-order catch-up, which stopped there.
      expect(warnings[0]).toMatch(/stream by stream failed/);
      // The indexes it set aside for bulk writing are back.
      const raw = new Database(join(dir, 'rm.sqlite'), { readonly: true });
      const indexes = raw.prepare(
        `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('trainees_${V}', 'trainee_changes_${V}') AND sql IS NOT NULL`,
      );
      expect(indexes.pluck().all().sort()).toEqual([
        `trainee_changes_${V}_position`,
        `trainee_changes_${V}_provider`,
        `trainees_${V}_duplicates`,
        `trainees_${V}_list`,
        `trainees_${V}_status`,
      ]);
      raw.close();
      expect(await rm.getTrainee('T0')).toMatchObject({ trainee_id: 'T0' });
      expect(await rm.getTrainee('T2')).toBeNull();
      rm.close();
      const reopened = new SqliteReadModel(join(dir, 'rm.sqlite'), options);
      expect(await new Projector(store, reopened, silent, { retryDelayMs: 1, catchUpAttempts: 1 }).catchUp()).toBe(before);
      expect(await reopened.getTrainee('T2')).toBeNull();
      expect((await reopened.projectionInfo()).map((p) => [p.name, p.skipped_events, p.rebuild_needed])).toEqual([
        ['trainees', 0, false],
        ['providers', 0, false],
      ]);
      reopened.close();
    });

    it('a store where an older version parked events needs a rebuild, until one of that projection is swapped in', async () => {
      await register('T0', 0);
      new SqliteReadModel(join(dir, 'rm.sqlite'), options).close();
      // What an older version of the service left: the events it skipped ("parked"), by projection.
      const raw = new Database(join(dir, 'rm.sqlite'));
      raw.exec(`
      CREATE TABLE projection_parked_events (
        position INTEGER PRIMARY KEY, projection TEXT NOT NULL, stream_id TEXT NOT NULL, revision INTEGER NOT NULL,
        type TEXT NOT NULL, error TEXT NOT NULL, attempts INTEGER NOT NULL, parked_at TEXT NOT NULL);
      INSERT INTO projection_parked_events VALUES (1, 'trainees', 'trainee-T0', 0, 'TraineeRegistered', 'a bug since fixed', 5, '2026-05-01T00:00:00.000Z');
      INSERT INTO projection_parked_events VALUES (99, 'providers', 'provider-1', 0, 'ProviderRegistered', 'x', 5, '2026-05-01T00:00:00.000Z');
    `);
      raw.close();
      const rm = new SqliteReadModel(join(dir, 'rm.sqlite'), options);
      const info = async () => (await rm.projectionInfo()).map((p) => [p.name, p.skipped_events, p.rebuild_needed]);
      expect(await info()).toEqual([
        ['trainees', 1, true],
        ['providers', 1, true],
      ]);
      await rebuildProjection(store, rm, 'trainees', {});
      expect(await info()).toEqual([
        ['trainees', 0, false],
        ['providers', 1, true],
      ]);
      expect(await rm.getTrainee('T0')).toMatchObject({ trainee_id: 'T0' });
      rm.close();
    });
  },
);

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
    expect(await measureLag(store, LOG_START, now)).toEqual({ checkpoint: 0, events: events.length, atLeast: false, seconds: 10 });
    const head = await store.headPosition();
    expect(await measureLag(store, head, now)).toEqual({ checkpoint: head, events: 0, atLeast: false, seconds: 0 });
    expect((await measureLag(store, LOG_START, now, 2)).atLeast).toBe(true);
    // Caught up, it reads only the head; behind, at most cap + 1 events, so a probe or scrape stays cheap
    // however far behind (docs/observability.md "Readings taken at scrape time").
    const readAll = jest.spyOn(store, 'readAll');
    await measureLag(store, head, now);
    expect(readAll).not.toHaveBeenCalled();
    await measureLag(store, LOG_START, now, 2);
    expect(readAll.mock.calls.map(([options]) => options?.maxCount)).toEqual([3]);
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
