/**
 * The SQLite read model on data written by earlier builds: events of an older schema, a data dir
 * from before projections were versioned one by one, a tokens table from before tokens expired, and
 * a change feed keyed by position.
 */
import { join } from 'node:path';
import { traineeStreamId } from '@app/trainees/decider';
import { providerStreamId } from '@app/providers/decider';
import { newEventId, toEventData, logPosition, LOG_START } from '@app/event-sourcing';
import { Projector } from '@app/runtime/projector';
import { rebuildProjection } from '@app/runtime/rebuild';
import { SqliteReadModel } from './sqlite-read-model';
import { TraineeTables } from './trainee-tables';
import type { StoredChange } from '@app/changes';
import {
  allChanges,
  closeFreshEventStore,
  openFreshEventStore,
  registrationEvents,
  silent,
  V,
  writeHistory,
} from './testing/read-model-histories';

/** Code of the trainee projection's first version: the layout from before projections were versioned one by one. */
const LEGACY = { codeVersions: { trainees: 1 } };

describe('reading events of an older schema', () => {
  it('projects a stored PlacementAdded v1 as v2 and leaves the stored event as it was', async () => {
    const fresh = openFreshEventStore('upcast-');
    const { dir, store } = fresh;
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
    await closeFreshEventStore(fresh);
  });
});

describe('a data dir from before projections were versioned one by one', () => {
  it('is adopted once: rebuilding twice after a restart rebuilds every document', async () => {
    const fresh = openFreshEventStore('legacy-');
    const { dir, store } = fresh;
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
    expect(await rm.listChanges('10000001', LOG_START, 10)).toBeNull();
    expect((await rm.projectionInfo()).find((p) => p.name === 'trainees')).toMatchObject({ store: 'v1', checkpoint: head, documents: 3 });
    await rebuildProjection(store, rm, 'trainees');
    rm.close();
    rm = new SqliteReadModel(file, LEGACY);
    const again = await rebuildProjection(store, rm, 'trainees');
    expect(again.store).toBe('v1');
    expect((await rm.projectionInfo()).find((p) => p.name === 'trainees')).toMatchObject({ store: 'v1', documents: 3 });
    expect(await rm.getTrainee('T2')).not.toBeNull();
    rm.close();
    await closeFreshEventStore(fresh);
  });
});

describe('a tokens table from before tokens expired', () => {
  it('gains expires_at and last_used_at when opened, answers as a rebuild does, and keeps later uses', async () => {
    const fresh = openFreshEventStore('tokens-');
    const { dir, store } = fresh;
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
    await closeFreshEventStore(fresh);
  });
});

describe('a change feed from before the changes had their own index', () => {
  it('is read and written where position is its key, and gains no second index on it; a new store indexes position', async () => {
    const fresh = openFreshEventStore('changes-');
    const { dir, store } = fresh;
    await writeHistory(store, 3, 1);
    const file = join(dir, 'rm.sqlite');
    let rm = new SqliteReadModel(file);
    await new Projector(store, rm, silent).catchUp();
    const feed = await allChanges(rm);
    expect(feed).toHaveLength(3 * 5);
    rm.close();
    const Database = (await import('better-sqlite3')).default;
    const raw = new Database(file);
    const changes = `trainee_changes_${V}`;
    const indexes = () =>
      raw
        .prepare<[string], string>(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? ORDER BY name`)
        .pluck()
        .all(changes);
    expect(indexes()).toEqual([`${changes}_position`, `${changes}_provider`]);
    // The layout of earlier builds: position is the rowid.
    raw.exec(`CREATE TABLE old_changes (position INTEGER PRIMARY KEY, ukprn TEXT NOT NULL, change TEXT NOT NULL);
      INSERT INTO old_changes SELECT position, ukprn, change FROM ${changes};
      DROP TABLE ${changes}; ALTER TABLE old_changes RENAME TO ${changes};`);

    rm = new SqliteReadModel(file);
    expect(await allChanges(rm)).toEqual(feed);
    expect(indexes()).toEqual([`${changes}_provider`]);
    await store.appendToStream(
      traineeStreamId('T3'),
      toEventData(registrationEvents('T3', 3), { occurredAt: '2026-01-01T00:00:00.000Z' }, newEventId),
    );
    await new Projector(store, rm, silent).catchUp();
    const more = await allChanges(rm);
    expect(more).toHaveLength(3 * 5 + 4);
    expect(more.slice(0, feed.length)).toEqual(feed);
    expect(await rm.changesBetween(LOG_START, logPosition(Number.MAX_SAFE_INTEGER), 1000)).toEqual(more);
    rm.close();
    raw.close();
    await closeFreshEventStore(fresh);
  });
});

describe('a change feed whose rows hold each change whole, as a JSON object', () => {
  it("reads as before, and an erasure deletes the trainee's rows of either form", async () => {
    const fresh = openFreshEventStore('changes-whole-');
    const { dir, store } = fresh;
    await writeHistory(store, 3, 1);
    const file = join(dir, 'rm.sqlite');
    let rm = new SqliteReadModel(file);
    await new Projector(store, rm, silent).catchUp();
    const feed = (await allChanges(rm)) as StoredChange[];
    rm.close();
    const Database = (await import('better-sqlite3')).default;
    const raw = new Database(file);
    const changes = `trainee_changes_${V}`;
    // The form of earlier builds: the whole change, position and ukprn included, as a JSON object.
    const rewrite = raw.prepare(`UPDATE ${changes} SET change = ? WHERE position = ?`);
    for (const c of feed.slice(0, 7)) rewrite.run(JSON.stringify(c), c.position);
    const objects = () => raw.prepare<[], number>(`SELECT COUNT(*) FROM ${changes} WHERE change LIKE '{%'`).pluck().get();
    expect(objects()).toBe(7);

    rm = new SqliteReadModel(file);
    expect(await allChanges(rm)).toEqual(feed);
    rm.close();
    // A trainee with rows of both forms.
    const erased = feed[6].trainee_id;
    const ofErased = feed.map((c, i) => (c.trainee_id === erased ? i : -1)).filter((i) => i >= 0);
    expect([ofErased.some((i) => i < 7), ofErased.some((i) => i >= 7)]).toEqual([true, true]);
    const tables = new TraineeTables(raw, V);
    tables.eraseChangesOf(feed[6].ukprn, erased);
    const left = feed.filter((c) => c.trainee_id !== erased);
    expect(left.length).toBeLessThan(feed.length);
    rm = new SqliteReadModel(file);
    expect(await allChanges(rm)).toEqual(left);
    rm.close();
    raw.close();
    await closeFreshEventStore(fresh);
  });
});

describe('a trainee table from before the hash chain', () => {
  it('gains head_hash when opened: an old row has no hash until its trainee changes, then the hash of its last event', async () => {
    const fresh = openFreshEventStore('head-hash-');
    const { dir, store } = fresh;
    await writeHistory(store, 1, 1);
    const file = join(dir, 'rm.sqlite');
    const first = new SqliteReadModel(file);
    await new Projector(store, first, silent).catchUp();
    first.close();
    const Database = (await import('better-sqlite3')).default;
    const raw = new Database(file);
    raw.exec(`ALTER TABLE trainees_${V} DROP COLUMN head_hash`);
    raw.close();

    const reopened = new SqliteReadModel(file);
    expect((await reopened.getTraineeSnapshot('T0'))?.head.link).toBeNull();
    await store.appendToStream(
      traineeStreamId('T0'),
      toEventData(
        [{ type: 'TraineeUpdated', data: { trainee_id: 'T0', changes: { middle_names: 'Kay' }, at: '2026-02-01T00:00:00.000Z' } }],
        {
          occurredAt: '2026-02-01T00:00:00.000Z',
        },
        newEventId,
      ),
    );
    await new Projector(store, reopened, silent).catchUp();
    const stream = await store.readStream(traineeStreamId('T0'));
    const snapshot = await reopened.getTraineeSnapshot('T0');
    expect(snapshot?.head.revision).toBe(stream.length - 1);
    expect(snapshot?.head.link).toBe(stream[stream.length - 1].metadata.hash);
    expect(snapshot?.head.link).toMatch(/^[0-9a-f]{64}$/);
    reopened.close();
    await closeFreshEventStore(fresh);
  });
});
