/**
 * A live write that lands after a swap dropped its store (docs/DESIGN.md "What the MongoDB read model guarantees"): a batch whose
 * write the driver sent again across a failover outlasts its window and the swap's wait, and re-creates the dropped collection without
 * its indexes; once it settles the batch drops it again (`dropAgain`, ./mongo-swap.ts). Over a database double (no MongoDB server)
 * that does what the server does with what the adapter sends:
 * - an insert or an upsert creates its collection, with no index but `_id`; an update or a delete of a missing collection creates
 *   none (mongod `src/mongo/db/ops/write_ops_exec.cpp`: `makeCollection` only for an insert or an upsert);
 * - `dropCollection` of a missing collection answers false (driver `operations/drop.ts`, NamespaceNotFound swallowed);
 * - the registry read answers the rows with `locked` (none is), `$addToSet` adds to a row's array; checkpoints `$max`-upsert.
 * The batch's clock (`performance.now`, which `WriteFence` reads) is the test's.
 */
import type { Db } from 'mongodb';
import { newEventId, toEventData, type RecordedEvent } from '@app/event-sourcing';
import { traineeRegistered } from '@app/trainees/decider/testing/trainee-events';
import { MongoReadModel } from './mongo-read-model';
import { MongoRegistry, type RegistryDocument } from './mongo-registry';
import { claimRebuildStore, dropAgain, dropStore } from './mongo-swap';

const WINDOW_MS = 1_000;

type Doc = Record<string, unknown> & { _id: unknown };

function databaseDouble() {
  const collections = new Map<string, Map<unknown, Doc>>();
  const registryRows = new Map<string, RegistryDocument>(
    ['trainees', 'providers'].map((name) => [
      name,
      { _id: name, version: 1, store: 'v1', rebuilding: null, swap_lock: null, updated_at: '' } as RegistryDocument,
    ]),
  );
  /** Run before a write to that collection lands. */
  const beforeWrite = new Map<string, () => Promise<void>>();
  const sent: string[] = [];
  const upsert = (name: string, doc: Doc) => {
    let rows = collections.get(name);
    if (!rows) collections.set(name, (rows = new Map()));
    rows.set(doc._id, { ...rows.get(doc._id), ...doc });
  };
  const collection = (name: string) => {
    if (name === 'projection_registry') {
      return {
        aggregate: () => ({
          toArray: async () => (
            sent.push('registry read'),
            [...registryRows.values()].map((row) => ({ ...structuredClone(row), locked: false }))
          ),
        }),
        updateOne: async (filter: { _id: string }, update: { $addToSet: { dropped: string } }) => {
          const row = registryRows.get(filter._id)!;
          row.dropped = [...new Set([...(row.dropped ?? []), update.$addToSet.dropped])];
          sent.push(`registry dropped ${update.$addToSet.dropped}`);
          return { matchedCount: 1 };
        },
      };
    }
    if (name === 'projection_checkpoints') {
      return {
        updateOne: async (filter: { _id: string }, update: { $max: { position: number } }) => {
          const position = Math.max(Number(collections.get(name)?.get(filter._id)?.position ?? 0), update.$max.position);
          upsert(name, { _id: filter._id, position });
          return { matchedCount: 1 };
        },
        deleteOne: async (filter: { _id: string }) => ({ deletedCount: collections.get(name)?.delete(filter._id) ? 1 : 0 }),
        deleteMany: async (filter: { _id: { $in: string[] } }) => {
          for (const id of filter._id.$in) collections.get(name)?.delete(id);
          return { deletedCount: 0 };
        },
      };
    }
    return {
      collectionName: name,
      find: () => ({ toArray: async () => [] }),
      bulkWrite: async (ops: Array<{ updateOne: { filter: { _id: unknown } } }>) => {
        await beforeWrite.get(name)?.();
        sent.push(`${name}.bulkWrite`);
        for (const op of ops) upsert(name, { _id: op.updateOne.filter._id });
        return {};
      },
    };
  };
  const db = {
    databaseName: 'double',
    collection,
    listCollections: (filter: { name: { $in: string[] } }) => ({
      toArray: async () => [...collections.keys()].filter((n) => filter.name.$in.includes(n)).map((n) => ({ name: n, type: 'collection' })),
    }),
    dropCollection: async (name: string) => (sent.push(`drop ${name}`), collections.delete(name)),
  } as unknown as Db;
  return { db, collections, registryRows, beforeWrite, sent };
}

function readModelOn(db: Db): MongoReadModel {
  const construct = MongoReadModel as unknown as new (client: unknown, db: Db, codeVersions: object, windowMs: number) => MongoReadModel;
  return new construct({}, db, {}, WINDOW_MS);
}

const at = '2026-01-01T00:00:00.000Z';
const batch = toEventData([traineeRegistered({ trainee_id: 'T1', ukprn: '10000001', at })], { occurredAt: at }, newEventId).map(
  (e, i) => ({ ...e, streamId: 'trainee-T1', streamRevision: i, position: 10 + i }) as unknown as RecordedEvent,
);

describe('a live write landing after a swap dropped its store (database double)', () => {
  let clock = 0;
  beforeEach(() => {
    clock = 0;
    jest.spyOn(performance, 'now').mockImplementation(() => clock);
  });
  afterEach(() => jest.restoreAllMocks());

  it('drops again the collection it re-created, and writes the batch to the store now served', async () => {
    const { db, collections, registryRows, beforeWrite } = databaseDouble();
    const registry = new MongoRegistry(db);
    beforeWrite.set('trainee_changes_v1', async () => {
      beforeWrite.delete('trainee_changes_v1');
      // The driver's first attempt met a failover; meanwhile the window and the swap's wait passed, the swap repointed the registry and
      // dropped v1. The attempt sent again lands now.
      clock += 2 * WINDOW_MS;
      registryRows.get('trainees')!.store = 'v2';
      await dropStore(registry, 'trainees', 'v1');
    });
    await readModelOn(db).applyBatch(batch);
    expect([...collections.keys()].filter((name) => name.startsWith('trainee'))).toEqual(['trainee_changes_v2', 'trainees_v2']);
    expect([...collections.get('projection_checkpoints')!.keys()].sort()).toEqual(['providers_v1', 'trainees_v2']);
  });

  it('reads the registry no more than once when the batch settles within its window', async () => {
    const { db, sent } = databaseDouble();
    await readModelOn(db).applyBatch(batch);
    expect(sent.filter((s) => s === 'registry read')).toHaveLength(1);
  });
});

describe('dropStore and dropAgain (database double)', () => {
  it('records the store as dropped before dropping its collections', async () => {
    const { db, sent } = databaseDouble();
    await dropStore(new MongoRegistry(db), 'providers', 'v1');
    expect(sent).toEqual(['registry dropped v1', 'drop providers_v1', 'drop tokens_v1']);
  });

  it('at connect drops every dropped store found re-created, never the served or a kept one', async () => {
    const { db, collections, registryRows } = databaseDouble();
    const registry = new MongoRegistry(db);
    for (const name of ['trainees_v1', 'trainees_v2', 'trainees_v3', 'trainee_changes_v3']) collections.set(name, new Map());
    Object.assign(registryRows.get('trainees')!, { store: 'v3', dropped: ['v1', 'v3'] });
    // v2 was kept (--keep-old), so it is not in `dropped`; v3 is in `dropped` yet served (a claim by a build from before `dropped`).
    await expect(dropAgain(registry, null)).resolves.toEqual(['trainees_v1']);
    expect([...collections.keys()].sort()).toEqual(['trainee_changes_v3', 'trainees_v2', 'trainees_v3']);
  });

  it('never claims a dropped store for a rebuild', async () => {
    const { db, registryRows } = databaseDouble();
    const registry = new MongoRegistry(db);
    Object.assign(registryRows.get('trainees')!, { store: 'v1', dropped: ['v2'] });
    const checkpoints = registry.checkpoints as unknown as { findOne: () => Promise<null> };
    checkpoints.findOne = async () => null;
    const collection = registry.collection as unknown as { updateOne: (filter: { rebuilding: null }, update: object) => Promise<object> };
    let claimed: unknown = null;
    collection.updateOne = async (_filter, update) => ((claimed = update), { matchedCount: 1 });
    await expect(claimRebuildStore(registry, 'trainees', 2)).resolves.toBe('v2_g2');
    expect(claimed).toEqual({ $set: expect.objectContaining({ rebuilding: 'v2_g2' }) });
  });
});
