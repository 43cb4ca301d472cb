/**
 * The stream phase in worker threads (docs/DESIGN.md "Rebuilding by stream"): the streams in the order they began, so trainee rows are
 * appended in `created_position` order, with a cursor that resumes in that order; a phase begun in stream-id order resumes in it.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { traineeStreamId } from '@app/trainees/decider';
import { Projector } from '@app/runtime/projector';
import { rebuildProjection } from '@app/runtime/rebuild';
import type { SqliteEventStore } from '../event-log/sqlite-event-store';
import { SqliteReadModel } from './sqlite-read-model';
import {
  allAnswers,
  allChanges,
  allDocs,
  closeFreshEventStore,
  openFreshEventStore,
  silent,
  V,
  writeHistory,
} from './testing/read-model-histories';

const IN_WORKERS = { workerFromPosition: 0 };

describe('SqliteStreamBuild in worker threads', () => {
  let dir: string;
  let store: SqliteEventStore;

  beforeEach(() => {
    ({ dir, store } = openFreshEventStore('stream-build-'));
  });
  afterEach(() => closeFreshEventStore({ dir, store }));

  /** What a fresh store's first catch-up builds. */
  async function fresh(n: number) {
    const rm = new SqliteReadModel(join(dir, 'fresh.sqlite'));
    await new Projector(store, rm, silent).catchUp();
    const built = { docs: await allDocs(rm, n), answers: await allAnswers(rm, n), changes: await allChanges(rm) };
    rm.close();
    return built;
  }

  /** Stops a rebuild of `rm` after its first batch of 20 events. */
  async function interrupted(rm: SqliteReadModel): Promise<void> {
    let batches = 0;
    const first = await rebuildProjection(store, rm, 'trainees', { batchSize: 20, shouldStop: () => ++batches > 1 });
    expect(first).toMatchObject({ interrupted: true, store: `${V}_g2` });
  }

  /** Resumes the interrupted rebuild of `rm` to its end; its 30 documents, answers and feed are what a fresh build makes. Closes `rm`. */
  async function resumesToWhatAFreshBuildMakes(rm: SqliteReadModel): Promise<void> {
    const resumed = await rebuildProjection(store, rm, 'trainees', { batchSize: 20 });
    expect(resumed).toMatchObject({ interrupted: false, store: `${V}_g2` });
    const expected = await fresh(30);
    expect(await allDocs(rm, 30)).toEqual(expected.docs);
    expect(await allAnswers(rm, 30)).toEqual(expected.answers);
    expect(await allChanges(rm)).toEqual(expected.changes);
    rm.close();
  }

  it('writes the streams in the order they began and resumes after the cursor in that order', async () => {
    // T0 … T29 begin in that order; in stream-id order T10 comes before T2.
    await writeHistory(store, 30, 2);
    const rm = new SqliteReadModel(join(dir, 'rm.sqlite'), IN_WORKERS);
    await new Projector(store, rm, silent).catchUp();
    await interrupted(rm);
    const raw = new Database(join(dir, 'rm.sqlite'));
    const written = raw.prepare<[], string>(`SELECT trainee_id FROM trainees_${V}_g2 ORDER BY seq`).pluck().all();
    expect(written.length).toBeGreaterThanOrEqual(3);
    expect(written).toEqual(written.map((_, i) => `T${i}`));
    expect(raw.prepare(`SELECT last_stream, stream_order FROM projection_rebuild_cursors`).get()).toEqual({
      last_stream: traineeStreamId(`T${written.length - 1}`),
      stream_order: 'created',
    });
    raw.close();

    await resumesToWhatAFreshBuildMakes(rm);
  });

  it('resumes a phase begun in stream-id order (a cursor table without the order) in stream-id order', async () => {
    await writeHistory(store, 30, 2);
    // In this thread: a log this short is read batch by batch, in stream-id order.
    const first = new SqliteReadModel(join(dir, 'rm.sqlite'));
    await new Projector(store, first, silent).catchUp();
    await interrupted(first);
    first.close();
    const raw = new Database(join(dir, 'rm.sqlite'));
    raw.exec(`ALTER TABLE projection_rebuild_cursors DROP COLUMN stream_order`);
    raw.close();

    const rm = new SqliteReadModel(join(dir, 'rm.sqlite'), IN_WORKERS);
    await resumesToWhatAFreshBuildMakes(rm);
  });
});
