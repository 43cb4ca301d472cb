// Slow by design: 600 generated trainees projected live and rebuilt (property 5), and 500 rebuilt beside the API's writes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteEventStore, type SqliteEventStore, SqliteReadModel } from '@app/stores/sqlite';
import { loadServiceKey } from '@app/runtime/process';
import { Projector, PROJECTION_VERSIONS } from '@app/runtime/projector';
import { rebuildProjection } from '@app/runtime/rebuild';
import { LOG_START } from '@app/event-sourcing';
import { API_VERSIONS } from '@app/trainees/record';
import { runAdmin } from '../support/admin-cli';
import { RunningApi } from '../support/api-harness';
import { writeHistories } from '../support/history-generator';
import { uniqueTrainee } from '../support/trainee-input';

/** The trainee store this code serves, and the next projection version (an upgrade). */
const V = `v${PROJECTION_VERSIONS.trainees}`;
const NEXT = PROJECTION_VERSIONS.trainees + 1;

const quiet = { error: () => undefined, warn: () => undefined };

describe('projection rebuild (blue/green) on SQLite', () => {
  let dir: string;
  let store: SqliteEventStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rebuild-'));
    store = openSqliteEventStore(dir);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('builds the same documents as the live projector, for hundreds of generated trainees (docs/DESIGN.md property 5)', async () => {
    const ids = await writeHistories(store, { trainees: 600, changesEach: 4 });
    const live = SqliteReadModel.open(dir);
    // The live projector, fed in small batches as a running service would be.
    await new Projector(store, live, quiet, { batchSize: 7 }).catchUp();
    const before = await Promise.all(ids.map((id) => live.getTrainee(id)));
    const outcome = await rebuildProjection(store, live, 'trainees', { keepOld: true });
    expect(outcome).toMatchObject({ interrupted: false, store: `${V}_g2`, previous: V, dropped: false });
    const after = await Promise.all(ids.map((id) => live.getTrainee(id)));
    expect(after).toEqual(before);
    expect(after.every((t) => t !== null && t.placements.length === 2 && t.degrees.length === 2)).toBe(true);
    const info = await live.projectionInfo();
    expect(info.find((p) => p.name === 'trainees')).toMatchObject({
      store: `${V}_g2`,
      documents: 600,
      rebuild_needed: false,
      rebuilding: null,
    });
    live.close();
  }, 120_000);

  it('builds the same documents, answer bytes and change feed in worker threads as the live projector (docs/DESIGN.md property 5)', async () => {
    const ids = await writeHistories(store, { trainees: 300, changesEach: 4 });
    const live = SqliteReadModel.open(dir, { workerFromPosition: 0 });
    await new Projector(store, live, quiet, { batchSize: 7 }).catchUp();
    const served = async () => ({
      docs: await Promise.all(ids.map((id) => live.getTrainee(id))),
      answers: await Promise.all(API_VERSIONS.flatMap((v) => ids.map(async (id) => (await live.getTraineeAnswer(id, v))?.body.toString()))),
      changes: await live.changesBetween(LOG_START, await store.headPosition(), 1_000_000),
    });
    const before = await served();
    const outcome = await rebuildProjection(store, live, 'trainees', { keepOld: true, batchSize: 500 });
    expect(outcome).toMatchObject({ interrupted: false, store: `${V}_g2`, previous: V });
    const after = await served();
    expect(after.docs).toEqual(before.docs);
    expect(after.answers).toEqual(before.answers);
    expect(after.answers.every((a) => a !== undefined)).toBe(true);
    expect(after.changes).toEqual(before.changes);
    expect(after.changes?.length).toBeGreaterThan(300 * 4);
    live.close();
  }, 120_000);

  it('stops between batches and resumes from its checkpoint; the old store serves until the swap', async () => {
    const ids = await writeHistories(store, { trainees: 300, changesEach: 2 });
    const rm = SqliteReadModel.open(dir);
    await new Projector(store, rm, quiet).catchUp();
    let batches = 0;
    const first = await rebuildProjection(store, rm, 'trainees', { batchSize: 100, shouldStop: () => ++batches > 3 });
    expect(first.interrupted).toBe(true);
    // Three batches of the stream phase: whole streams, so each ends at the stream that reaches 100 events.
    expect(first.events).toBeGreaterThanOrEqual(300);
    expect(first.events).toBeLessThan(300 + 3 * 10);
    let info = (await rm.projectionInfo()).find((p) => p.name === 'trainees')!;
    expect(info).toMatchObject({ store: V, rebuilding: `${V}_g2` });
    expect(await rm.getTrainee(ids[299])).not.toBeNull();

    const second = await rebuildProjection(store, rm, 'trainees', { batchSize: 100 });
    expect(second).toMatchObject({ interrupted: false, store: `${V}_g2`, previous: V, dropped: true });
    expect(second.events).toBeLessThan(await store.headPosition());
    info = (await rm.projectionInfo()).find((p) => p.name === 'trainees')!;
    expect(info).toMatchObject({ store: `${V}_g2`, rebuilding: null, documents: 300 });
    expect((await rm.getTrainee(ids[0]))?.details.middle_names).toBe('M2');
    rm.close();
  });

  it('reports a projection built by another code version and serves it until the rebuild, which builds the code’s version', async () => {
    await writeHistories(store, { trainees: 50, changesEach: 1 });
    const old = SqliteReadModel.open(dir);
    await new Projector(store, old, quiet).catchUp();
    old.close();
    const upgraded = new SqliteReadModel(join(dir, 'read-models.sqlite'), { codeVersions: { trainees: NEXT } });
    expect((await upgraded.projectionInfo()).find((p) => p.name === 'trainees')).toMatchObject({
      version: PROJECTION_VERSIONS.trainees,
      code_version: NEXT,
      rebuild_needed: true,
    });
    expect(await upgraded.getTrainee('G000049')).not.toBeNull();
    const outcome = await rebuildProjection(store, upgraded, 'trainees');
    expect(outcome).toMatchObject({ store: `v${NEXT}`, previous: V, dropped: true });
    expect((await upgraded.projectionInfo()).find((p) => p.name === 'trainees')).toMatchObject({
      version: NEXT,
      store: `v${NEXT}`,
      rebuild_needed: false,
    });
    expect(await upgraded.getTrainee('G000049')).not.toBeNull();
    upgraded.close();
  });
});

describe('projections rebuild through the admin CLI while the API serves writes', () => {
  let dir: string;
  let api: RunningApi;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rebuild-live-'));
    // The sandbox key first, as the service makes it: never over a log that exists.
    loadServiceKey({ dataDir: dir, dataKeyFile: null });
    const seed = openSqliteEventStore(dir);
    await writeHistories(seed, { trainees: 500, changesEach: 3 });
    await seed.close();
    api = await RunningApi.start({ dataDir: dir });
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('swaps with no failed or stale read of an acknowledged write', async () => {
    const token = await api.providerToken('10000090');
    const created = await api.request('POST', '/api/v2025.0/trainees', token, uniqueTrainee('v2025.0'));
    const id = created.body.data.trainee_id;
    // Writes and reads until a few rounds after the rebuild ended, against the store swapped in.
    let lastRound = Infinity;
    const failures: string[] = [];
    let rounds = 0;
    const load = (async () => {
      while (rounds < lastRound) {
        rounds++;
        const value = `R${rounds}`;
        const patched = await api.request('PATCH', `/api/v2025.0/trainees/${id}`, token, { data: { middle_names: value } });
        if (patched.status !== 200) failures.push(`PATCH ${patched.status}`);
        const read = await api.request('GET', `/api/v2025.0/trainees/${id}`, token);
        if (read.status !== 200) failures.push(`GET ${read.status}`);
        else if (read.body.data.middle_names !== value) failures.push(`stale read: ${read.body.data.middle_names} after ${value}`);
        const list = await api.request('GET', '/api/v2025.0/trainees?academic_cycle=2025&per_page=5', token);
        if (list.status !== 200) failures.push(`list ${list.status}`);
      }
    })();
    const rebuilt = await runAdmin(['projections', 'rebuild', 'trainees'], dir);
    lastRound = rounds + 3;
    await load;
    expect(rebuilt.stderr).not.toMatch(/Error/);
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stdout).toMatch(new RegExp(`Rebuilt trainees into ${V}_g2: \\d+ events .* now serving ${V}_g2; dropped ${V}\\b`));
    expect(rounds).toBeGreaterThan(3);
    expect(failures).toEqual([]);
    const status = await runAdmin(['projections', 'status', '--json'], dir);
    const trainees = (JSON.parse(status.stdout) as { name: string; store: string; documents: number }[]).find(
      (p) => p.name === 'trainees',
    )!;
    expect(trainees).toMatchObject({ store: `${V}_g2`, documents: 501 });
    const read = await api.request('GET', `/api/v2025.0/trainees/${id}`, token);
    expect(read.body.data.middle_names).toBe(`R${rounds}`);
  }, 120_000);
});
