import { randomUUID } from 'node:crypto';
import type { LogPosition, RecordedEvent } from '@app/event-sourcing';
import type { ProjectionName } from '@app/runtime/projector';
import { applyToStore } from './mongo-apply';
import { mongoStoreCollections } from './mongo-collections';
import { MAX_WRITE_ATTEMPTS, now, settleAll, sleep, SWAP_LEASE_MS, WRITE_CONCERN } from '../mongo-connection';
import { dropWaitMs, LIVE_WRITE_WINDOW_MS } from './write-fence';
import type { MongoRegistry } from './mongo-registry';

/** What a swap is asked: keep the old store, and the live batches' write window (ms, default {@link LIVE_WRITE_WINDOW_MS}). */
export interface SwapOptions {
  keepOld: boolean;
  liveWriteWindowMs?: number;
}

/** Reads the log after a position: what a rebuild hands its swap (`RebuildTarget.swap`). */
type ReadAfter = (position: LogPosition) => Promise<RecordedEvent[]>;

/** The lease's end: the server's time plus {@link SWAP_LEASE_MS}. */
const LEASE = { $add: ['$$NOW', SWAP_LEASE_MS] };

/** A filter clause: the swap lock's lease is not over (by the server's clock). */
const LEASE_LIVE = { $expr: { $gt: ['$swap_lock.until', '$$NOW'] } };

/**
 * The store a rebuild of `name` (code version `code`) writes: the one in progress (the registry's
 * `rebuilding`), or a new one claimed with a compare-and-set on the registry (`rebuilding: null` →
 * the name), so two operators starting at once end up on the same store. A new store is named
 * `v<code>`, else `v<code>_g<n>` with the smallest n ≥ 2, skipping the served store's name and any
 * name that has a collection or a checkpoint document. Throws an `Error` when the claim keeps
 * losing races, and the driver's errors.
 */
export async function claimRebuildStore(registry: MongoRegistry, name: ProjectionName, code: number): Promise<string> {
  for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
    const row = (await registry.read()).rows[name];
    if (row.rebuilding) return row.rebuilding;
    let store = `v${code}`;
    for (let g = 2; store === row.store || (await storeExists(registry, name, store)); g++) store = `v${code}_g${g}`;
    const claimed = await registry.collection.updateOne(
      { _id: name, store: row.store, rebuilding: null },
      { $set: { rebuilding: store, updated_at: now() } },
      { writeConcern: WRITE_CONCERN },
    );
    if (claimed.matchedCount === 1) {
      await registry.read();
      return store;
    }
  }
  throw new Error(`Could not start a rebuild of ${name}: projection_registry kept changing under it; try again`);
}

/** True when store `store` of `name` has a collection or a checkpoint document. */
async function storeExists(registry: MongoRegistry, name: ProjectionName, store: string): Promise<boolean> {
  const [collections, checkpoint] = await Promise.all([
    registry.db.listCollections({ name: { $in: mongoStoreCollections(name, store) } }, { nameOnly: true }).toArray(),
    registry.checkpoints.findOne({ _id: `${name}_${store}` }, { projection: { _id: 1 } }),
  ]);
  return collections.length > 0 || checkpoint !== null;
}

/**
 * `RebuildTarget.swap` of a rebuild of `name` into `store` (built by code version `version`):
 * 1. takes the registry's swap lock of `name`: a conditional update (`rebuilding` is still
 *    `store`, no other swap holds a live lease) setting `swap_lock` = {token, until: server
 *    time + {@link SWAP_LEASE_MS}}. From then on no live `applyBatch`, in any process, starts a
 *    batch: it reads the registry at the start of every batch and waits while a lease is live;
 * 2. catches `store` up with `readAfter(checkpoint)` until it returns nothing, renewing the lease
 *    after every batch;
 * 3. repoints the registry with ONE `updateOne` — `version`, `store`, `rebuilding: null`,
 *    `swap_lock: null` — conditional on the row still naming the old store, `rebuilding` being
 *    `store` and our lease being live (an atomic compare-and-set on one document: every reader
 *    and the live projector see the old row or the new one, never a mix);
 * 4. catches `store` up once more from its checkpoint (see {@link finishSwap});
 * 5. unless `keepOld`, waits until no live batch that found the old store unlocked may still write
 *    it (the write window plus a margin after the lock: ./write-fence.ts), then drops the old
 *    store's collections and its checkpoint document.
 *
 * Returns the previous store and whether it was dropped. Throws an `Error` when the lock cannot
 * be taken, when the lease ran out (the swapping process stalled longer than the lease: the live
 * projector may have resumed on the old store) or when the compare-and-set finds the registry
 * changed; the registry is then as before, the lock is freed, and running the rebuild again
 * resumes it and retries the swap. An error of the last catch-up or of the drop (4 and 5 above)
 * comes after the swap took effect and says so. Throws the driver's errors.
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
    // Why the new store holds every event applied anywhere once this catch-up ends: a batch the
    // live projector applies to the old store either read the registry before the lock was
    // taken — then its events were read from the log before that, so this loop, whose reads
    // all come later and go on until the log has nothing more, applies them — or after it,
    // and then it waits for the repoint and writes the new store. So the new store is also
    // never written out of stream order by the live projector (applying revision n+1 to a
    // document that lacks revision n would make the revision guard skip n for good).
    await catchUp(registry, name, store, version, readAfter, () => renewSwapLock(registry, name, store, token, previous));
    const repointed = await registry.collection.updateOne(
      { _id: name, store: previous, rebuilding: store, 'swap_lock.token': token, ...LEASE_LIVE },
      { $set: { version, store, rebuilding: null, swap_lock: null, updated_at: now() } },
      { writeConcern: WRITE_CONCERN },
    );
    if (repointed.matchedCount === 0) {
      throw new Error(
        `Swap of ${name} to ${store} did not take effect: the registry no longer names ${previous} with this rebuild and lock`,
      );
    }
  } catch (error) {
    await registry.collection
      .updateOne({ _id: name, 'swap_lock.token': token }, { $set: { swap_lock: null } }, { writeConcern: WRITE_CONCERN })
      .catch(() => undefined);
    throw error;
  }
  await registry.read();
  return finishSwap(registry, name, store, version, previous, readAfter, { ...options, lockedAt });
}

/** Takes the swap lock of `name` for a swap to `store` (1 of {@link swapInto}); returns its token. */
async function takeSwapLock(registry: MongoRegistry, name: ProjectionName, store: string): Promise<string> {
  const token = randomUUID();
  const locked = await registry.collection.updateOne(
    {
      _id: name,
      rebuilding: store,
      $or: [{ swap_lock: null }, { $expr: { $lte: ['$swap_lock.until', '$$NOW'] } }],
    },
    [{ $set: { swap_lock: { token: { $literal: token }, until: LEASE }, updated_at: { $literal: now() } } }],
    { writeConcern: WRITE_CONCERN },
  );
  if (locked.matchedCount === 0) {
    throw new Error(
      `Cannot swap ${name} to ${store}: the registry does not name it as the rebuild in progress, or another swap holds the lock`,
    );
  }
  return token;
}

/** Renews the lease of the swap lock `token`; throws when it is no longer held (the lease ran out). */
async function renewSwapLock(registry: MongoRegistry, name: ProjectionName, store: string, token: string, previous: string): Promise<void> {
  const renewed = await registry.collection.updateOne(
    { _id: name, 'swap_lock.token': token, ...LEASE_LIVE },
    [{ $set: { 'swap_lock.until': LEASE } }],
    { writeConcern: WRITE_CONCERN },
  );
  if (renewed.matchedCount === 0) {
    throw new Error(
      `Swap of ${name} to ${store} lost its lock (lease of ${SWAP_LEASE_MS} ms over): the live projector may have resumed on ${previous}`,
    );
  }
}

/** Applies `readAfter(checkpoint of store)` to `store` until it returns nothing, calling `afterBatch` after each batch. */
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

/** 4 and 5 of {@link swapInto}, after the repoint: the last catch-up, then the old store's drop. */
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
    // One more catch-up, from the new store's checkpoint. Under the lock nothing can have
    // reached the old store only, so this pass normally finds only what was appended since
    // the last read above (the live projector, released by the repoint, applies it too; both
    // apply in log order from a point the store already holds, and the revision guard makes
    // the second application a no-op). It makes the new store current and its checkpoint reach
    // the log's head even when no live projector is running, and re-applies (idempotently)
    // anything a writer that ignores the lock may have put in the old store only — a process
    // still running a build of this adapter from before the registry, for instance.
    // Without the lock this pass would NOT close the gap: the released live projector may
    // apply revision n+1 of a document to the new store before the pass applies revision n,
    // and its `$max` checkpoint may jump past n, so n would be skipped for good.
    await catchUp(registry, name, store, version, readAfter);
    if (options.keepOld || previous === store) return { previous, dropped: false };
    // No live batch that found the old store unlocked may still write it (./write-fence.ts).
    await sleep(dropWaitMs(options.lockedAt, performance.now(), options.liveWriteWindowMs ?? LIVE_WRITE_WINDOW_MS));
    await settleAll(
      mongoStoreCollections(name, previous).map((collection) =>
        registry.db.dropCollection(collection, { writeConcern: WRITE_CONCERN }).then(() => undefined),
      ),
    );
    await registry.checkpoints.deleteOne({ _id: `${name}_${previous}` }, { writeConcern: WRITE_CONCERN });
    return { previous, dropped: true };
  } catch (error) {
    throw new Error(`${name} now serves from ${store} (swapped from ${previous}), but finishing the swap failed: ${String(error)}`, {
      cause: error,
    });
  }
}
