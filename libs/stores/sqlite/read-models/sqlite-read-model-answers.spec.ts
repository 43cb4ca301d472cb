/**
 * The SQLite read model's stored answers (docs/DESIGN.md "Answers stored as bytes"): the bytes
 * sent are those stored at the last change, the unfiltered counts kept per provider and cycle,
 * and answers rendered where none is stored or the store is of another projection version.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { contractFor } from '@app/trainees/contract';
import { traineeStreamId } from '@app/trainees/decider';
import { traineeUpdated } from '@app/trainees/decider/testing/trainee-events';
import { newEventId, toEventData } from '@app/event-sourcing';
import { PROJECTION_VERSIONS } from '@app/runtime/projector';
import type { SqliteEventStore } from '../event-log/sqlite-event-store';
import { SqliteReadModel } from './sqlite-read-model';
import { allAnswers, closeFreshEventStore, openFreshEventStore, V, writeHistory } from './testing/read-model-histories';

let dir: string;
let store: SqliteEventStore;

/** Gives each test of the calling describe a fresh temporary directory (`dir`) and SQLite event store (`store`). */
function useFreshEventStore(): void {
  beforeEach(() => {
    ({ dir, store } = openFreshEventStore());
  });
  afterEach(() => closeFreshEventStore({ dir, store }));
}

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
    raw
      .prepare(`UPDATE trainee_answers_${V} SET body = ?, item_end = 11, base = NULL WHERE version = 'v2025.0'`)
      .run(Buffer.from('{"stored":1,"x":2}'));
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
      date_of_birth, training_route, last_name_key, revision, doc, head_hash FROM trainees_${V} WHERE trainee_id = 'T0'`);
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

  it('stores the newest version’s answer whole and an older one as a patch over it, and serves both byte for byte', async () => {
    const { rm, raw } = await projected();
    const stored = raw
      .prepare(`SELECT version, base, length(body) AS bytes FROM trainee_answers_${V} WHERE seq = (SELECT MIN(seq) FROM trainees_${V})`)
      .all() as { version: string; base: string | null; bytes: number }[];
    expect(stored.map((r) => [r.version, r.base])).toEqual([
      ['v2025.0', 'v2026.1'],
      ['v2026.1', null],
    ]);
    expect(stored[0].bytes * 5).toBeLessThan(stored[1].bytes);
    const newer = new SqliteReadModel(join(dir, 'rm.sqlite'), { codeVersions: { trainees: PROJECTION_VERSIONS.trainees + 1 } });
    for (const version of ['v2025.0', 'v2026.1'] as const) {
      for (const id of ['T0', 'T1']) {
        // The other code version renders from the document: what the stored bytes must equal.
        expect((await rm.getTraineeAnswer(id, version))?.body.toString()).toBe(
          (await newer.getTraineeAnswer(id, version))?.body.toString(),
        );
      }
      expect((await rm.listTraineeAnswers(query, version)).items.map(String)).toEqual(
        (await newer.listTraineeAnswers(query, version)).items.map(String),
      );
    }
    for (const c of [rm, newer, raw]) c.close();
  });

  it('renders from the document where a patch’s base is missing, and reads a store whose answers have no base column', async () => {
    const { rm, raw } = await projected();
    const single = (await rm.getTraineeAnswer('T0', 'v2025.0'))!.body.toString();
    const items = (await rm.listTraineeAnswers(query, 'v2025.0')).items.map(String);
    raw.exec(`DELETE FROM trainee_answers_${V} WHERE version = 'v2026.1'`);
    expect((await rm.getTraineeAnswer('T0', 'v2025.0'))!.body.toString()).toBe(single);
    expect((await rm.listTraineeAnswers(query, 'v2025.0')).items.map(String)).toEqual(items);
    rm.close();
    // A store from before patches: whole answers, no `base` column.
    raw.exec(`DELETE FROM trainee_answers_${V}; ALTER TABLE trainee_answers_${V} DROP COLUMN base`);
    const reopened = new SqliteReadModel(join(dir, 'rm.sqlite'));
    expect((await reopened.getTraineeAnswer('T0', 'v2025.0'))!.body.toString()).toBe(single);
    const from = (await store.readAll({ maxCount: 1000 })).length;
    await store.appendToStream(
      traineeStreamId('T0'),
      toEventData(
        [traineeUpdated({ trainee_id: 'T0', changes: { middle_names: 'Again' }, at: '2026-03-01T00:00:00.000Z' })],
        {
          occurredAt: '2026-03-01T00:00:00.000Z',
        },
        newEventId,
      ),
    );
    await reopened.applyBatch((await store.readAll({ maxCount: 1000 })).slice(from));
    expect(raw.prepare(`SELECT COUNT(*) FROM trainee_answers_${V} WHERE base = 'v2026.1'`).pluck().get()).toBeGreaterThan(0);
    for (const c of [reopened, raw]) c.close();
  });
});
