import { randomUUID } from 'node:crypto';
import type { LogPosition, RecordedEvent } from '@app/event-sourcing';
import { PROJECTION_NAMES, type ProjectionName } from '@app/runtime/projector';
import { applyToStore } from './mongo-apply';
import { mongoStoreCollections } from './mongo-collections';
import { MAX_WRITE_ATTEMPTS, now, retryMultiWrite, settleAll, sleep, SWAP_LEASE_MS } from '../mongo-connection';
import { dropWaitMs, LIVE_WRITE_WINDOW_MS } from './write-fence';
import type { MongoRegistry } from './mongo-registry';

/** `liveWriteWindowMs`: the live batches' write window. */
export interface SwapOptions {
  keepOld: boolean;
  liveWriteWindowMs?: number;
}

/** What a rebuild hands its swap (`RebuildTarget.swap`). */
type ReadAfter = (position: LogPosition) => Promise<RecordedEvent[]>;

const LEASE = { $add: ['$$NOW', SWAP_LEASE_MS] };

/** The swap lock's lease is not over, by the server's clock. */
const LEASE_LIVE = { $expr: { $gt: ['$swap_lock.until', '$$NOW'] } };

/**
 * `MongoReadModel.beginRebuild`'s claim: never a name with a collection or checkpoint left, nor one a swap dropped (`dropped`), which
 * {@link dropAgain} may drop at any time. Throws an Error when the claim keeps losing races, and the driver's errors.
 */
export async function claimRebuildStore(registry: MongoRegistry, name: ProjectionName, code: number): Promise<string> {
  for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
    const row = (await registry.read()).rows[name];
    if (row.rebuilding) return row.rebuilding;
    let store = `v${code}`;
    const taken = (candidate: string) => candidate === row.store || (row.dropped ?? []).includes(candidate);
    for (let g = 2; taken(store) || (await storeExists(registry, name, store)); g++) store = `v${code}_g${g}`;
    const claimed = await registry.collection.updateOne(
      { _id: name, store: row.store, rebuilding: null },
      { $set: { rebuilding: store, updated_at: now() } },
    );
    if (claimed.matchedCount === 1) {
      await registry.read();
      return store;
    }
  }
  throw new Error(`Could not start a rebuild of ${name}: projection_registry kept changing under it; try again`);
}

async function storeExists(registry: MongoRegistry, name: ProjectionName, store: string): Promise<boolean> {
  const [collections, checkpoint] = await Promise.all([
    registry.db.listCollections({ name: { $in: mongoStoreCollections(name, store) } }, { nameOnly: true }).toArray(),
    registry.checkpoints.findOne({ _id: `${name}_${store}` }, { projection: { _id: 1 } }),
  ]);
  return collections.length > 0 || checkpoint !== null;
}

/**
 * `RebuildTarget.swap`: (1) takes the swap lock (a conditional update: still `rebuilding` `store`, no live lease), after which no live
 * batch in any process starts; (2) catches `store` up, renewing the lease after each batch; (3) repoints the registry with one
 * conditional `updateOne` (old store, `rebuilding`, our live lease), so readers see the old row or the new, never a mix;
 * (4) catches up once more ({@link finishSwap}); (5) unless `keepOld`, drops the old store ({@link dropStore}) once no live batch
 * may still send a write to it (./write-fence.ts). Throws an Error when the lock cannot be taken, the lease ran out, or the repoint
 * finds the registry changed: the registry is as before, the lock freed, and the rebuild run again resumes. Errors of (4) and (5)
 * say the swap took effect.
 */
export async function swapInto(
  registry: MongoRegistry,
  name: ProjectionName,
  store: string,
  version: number,
  readAfter: ReadAfter,
  options: SwapOptions,
): Promise<{ previous: string; dropped: boolean }> {
  const token = await takeSwapLock(registry, name, store);
  // Acknowledged, so at or after the lock took effect: the live batches' write windows count from before it.
  const lockedAt = performance.now();
  let previous: string;
  try {
    previous = (await registry.read()).rows[name].store;
    // A live batch on the old store read the registry either before the lock, so its events were read from the log before this loop's
    // reads, which go on until the log has nothing more, or after it, and it waits for the repoint and writes the new store. So the new
    // store holds every event, never written out of stream order (revision n+1 before n would make the guard skip n for good).
    await catchUp(registry, name, store, version, readAfter, () => renewSwapLock(registry, name, store, token, previous));
    const repointed = await registry.collection.updateOne(
      { _id: name, store: previous, rebuilding: store, 'swap_lock.token': token, ...LEASE_LIVE },
      { $set: { version, store, rebuilding: null, swap_lock: null, updated_at: now() } },
    );
    if (repointed.matchedCount === 0) {
      throw new Error(
        `Swap of ${name} to ${store} did not take effect: the registry no longer names ${previous} with this rebuild and lock`,
      );
    }
  } catch (error) {
    await registry.collection.updateOne({ _id: name, 'swap_lock.token': token }, { $set: { swap_lock: null } }).catch(() => undefined);
    throw error;
  }
  await registry.read();
  return finishSwap(registry, name, store, version, previous, readAfter, { ...options, lockedAt });
}

/** The swap lock {@link swapInto} takes first; returns its token. */
async function takeSwapLock(registry: MongoRegistry, name: ProjectionName, store: string): Promise<string> {
  const token = randomUUID();
  const locked = await registry.collection.updateOne(
    {
      _id: name,
      rebuilding: store,
      $or: [{ swap_lock: null }, { $expr: { $lte: ['$swap_lock.until', '$$NOW'] } }],
    },
    [{ $set: { swap_lock: { token: { $literal: token }, until: LEASE }, updated_at: { $literal: now() } } }],
  );
  if (locked.matchedCount === 0) {
    throw new Error(
      `Cannot swap ${name} to ${store}: the registry does not name it as the rebuild in progress, or another swap holds the lock`,
    );
  }
  return token;
}

/** Throws when the lease ran out. */
async function renewSwapLock(registry: MongoRegistry, name: ProjectionName, store: string, token: string, previous: string): Promise<void> {
  const renewed = await registry.collection.updateOne({ _id: name, 'swap_lock.token': token, ...LEASE_LIVE }, [
    { $set: { 'swap_lock.until': LEASE } },
  ]);
  if (renewed.matchedCount === 0) {
    throw new Error(
      `Swap of ${name} to ${store} lost its lock (lease of ${SWAP_LEASE_MS} ms over): the live projector may have resumed on ${previous}`,
    );
  }
}

/** Until `readAfter` returns nothing, `afterBatch` after each batch. */
async function catchUp(
  registry: MongoRegistry,
  name: ProjectionName,
  store: string,
  version: number,
  readAfter: ReadAfter,
  afterBatch: () => Promise<void> = async () => undefined,
): Promise<void> {
  for (;;) {
    const events = await readAfter(await registry.readCheckpoint(`${name}_${store}`));
    if (events.length === 0) break;
    await applyToStore(registry, name, store, version, events);
    await afterBatch();
  }
}

/** What {@link swapInto} does after the repoint: the last catch-up, then the old store dropped unless kept. */
async function finishSwap(
  registry: MongoRegistry,
  name: ProjectionName,
  store: string,
  version: number,
  previous: string,
  readAfter: ReadAfter,
  options: SwapOptions & { lockedAt: number },
): Promise<{ previous: string; dropped: boolean }> {
  try {
    // Under the lock nothing reached the old store only, so this finds what was appended since (the released live projector applies it
    // too; the revision guard makes the second a no-op). It brings the checkpoint to the head without a live projector, and re-applies
    // what a writer ignoring the lock (an older build) put in the old store only. Without the lock it would not close the gap: the live
    // projector may apply revision n+1 before this pass applies n, and its `$max` checkpoint jump past n, skipping n for good.
    await catchUp(registry, name, store, version, readAfter);
    if (options.keepOld || previous === store) return { previous, dropped: false };
    // No live batch that found the old store unlocked may still write it within its window (./write-fence.ts); one whose write outlasts
    // that (a write the driver sent again after a failover) drops the store again once it has settled (`dropAgain`).
    await sleep(dropWaitMs(options.lockedAt, performance.now(), options.liveWriteWindowMs ?? LIVE_WRITE_WINDOW_MS));
    await dropStore(registry, name, previous);
    return { previous, dropped: true };
  } catch (error) {
    throw new Error(`${name} now serves from ${store} (swapped from ${previous}), but finishing the swap failed: ${String(error)}`, {
      cause: error,
    });
  }
}

/**
 * Drops `store` of `name`, a store no longer served or rebuilt: records it in the registry row's `dropped` first, so a write that lands
 * after the drop and re-creates a collection (without its indexes) is found by {@link dropAgain}; then its collections and checkpoint.
 */
export async function dropStore(registry: MongoRegistry, name: ProjectionName, store: string): Promise<void> {
  await registry.collection.updateOne({ _id: name }, { $addToSet: { dropped: store } });
  await settleAll(mongoStoreCollections(name, store).map((collection) => registry.db.dropCollection(collection).then(() => undefined)));
  await registry.checkpoints.deleteOne({ _id: `${name}_${store}` });
}

/**
 * Drops again what a late write re-created of a store a swap dropped (`dropped`, neither served nor rebuilt): its collections, found by
 * one `listCollections`, and its checkpoint. `within`: the stores a write that settled after its window may have written (a live batch
 * or an erasure); null: every dropped store (at connect, for a process that died before its check). Run after the write has settled,
 * its last attempt included, so no write it made can land after this; the registry is read afresh, after the swap recorded the store.
 * Returns the collections dropped again.
 */
export async function dropAgain(registry: MongoRegistry, within: Record<ProjectionName, readonly string[]> | null): Promise<string[]> {
  const { rows } = await registry.read();
  const stale = PROJECTION_NAMES.flatMap((name) =>
    (rows[name].dropped ?? [])
      .filter((store) => store !== rows[name].store && store !== rows[name].rebuilding && (!within || within[name].includes(store)))
      .map((store) => ({ name, store })),
  );
  if (stale.length === 0) return [];
  const names = stale.flatMap(({ name, store }) => mongoStoreCollections(name, store));
  const found = await registry.db.listCollections({ name: { $in: names } }, { nameOnly: true }).toArray();
  const recreated = names.filter((collection) => found.some((c) => c.name === collection));
  await settleAll(recreated.map((collection) => registry.db.dropCollection(collection).then(() => undefined)));
  await retryMultiWrite(() => registry.checkpoints.deleteMany({ _id: { $in: stale.map(({ name, store }) => `${name}_${store}`) } }));
  return recreated;
}
