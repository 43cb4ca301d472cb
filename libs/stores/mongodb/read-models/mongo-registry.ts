import type { Collection, Db } from 'mongodb';
import { logPosition, type LogPosition } from '@app/event-sourcing';
import { PROJECTION_NAMES, PROJECTION_VERSIONS, type ProjectionName } from '@app/runtime/projector';
import { isStoreGone, LEGACY_CHECKPOINT_ID, MONGO_COLLECTIONS, now, retryDuplicateKey, WRITE_CONCERN } from '../mongo-connection';
import { FreshReads, readFollowingRegistry } from './fresh-read';

/** One checkpoint of `projection_checkpoints`: a store's (`<projection>_<store>`) or another consumer's. */
export interface CheckpointDocument {
  _id: string;
  position: number;
  version: number;
  updated_at: string;
}

/** One projection's document of `projection_registry`. */
export interface RegistryDocument {
  /** The projection name. */
  _id: ProjectionName;
  /** Version of the code that built the store being served. */
  version: number;
  /** The store being served (collection suffix). */
  store: string;
  /** The store a rebuild in progress is writing, or null. */
  rebuilding: string | null;
  /**
   * Held by a swap while it catches the new store up and repoints `store` (MongoDB's stand-in for
   * the SQLite adapter's write lock): `token` names the swap, `until` is the lease's end in the
   * server's clock (`$$NOW`). Null or absent when free.
   */
  swap_lock?: { token: string; until: Date } | null;
  updated_at: string;
}

/** A registry read: each projection's row and whether its swap lock was held when read. */
export interface Registry {
  rows: Record<ProjectionName, RegistryDocument>;
  /** Per projection: a swap lock with a lease not yet over (by the server's clock) was held. */
  locked: Record<ProjectionName, boolean>;
  /** `Date.now()` when the read was sent. */
  readAt: number;
  /** `performance.now()` when the read was sent (a live batch's write window starts then: ./write-fence.ts). */
  sentAt: number;
  /** Order in which the read was sent (a newer read is never replaced by an older one). */
  seq: number;
}

/**
 * The registry (`projection_registry`: which store each projection serves from) and the
 * checkpoints (`projection_checkpoints`) of one database, with the registry reads the read methods
 * share ({@link readFollowing}).
 */
export class MongoRegistry {
  readonly checkpoints: Collection<CheckpointDocument>;
  readonly collection: Collection<RegistryDocument>;
  readonly codeVersions: Record<ProjectionName, number>;
  private cached: Registry | null = null;
  private registrySeq = 0;
  /** Registry reads sent after their callers asked, shared among concurrent callers. */
  private readonly fresh = new FreshReads(() => this.read());

  /** Takes the database and the projection versions this code builds (default {@link PROJECTION_VERSIONS}). */
  constructor(
    readonly db: Db,
    codeVersions: Partial<Record<ProjectionName, number>> = {},
  ) {
    this.checkpoints = db.collection<CheckpointDocument>(MONGO_COLLECTIONS.checkpoints);
    this.collection = db.collection<RegistryDocument>(MONGO_COLLECTIONS.registry);
    this.codeVersions = { ...PROJECTION_VERSIONS, ...codeVersions };
  }

  /**
   * Registers every projection missing from `projection_registry` (idempotent), as
   * `SqliteReadModel`'s constructor does:
   * - a database with an empty registry and the legacy checkpoint `main_v1` (read models from
   *   before projections were versioned one by one, served from `trainees_v1`, `providers_v1`,
   *   `tokens_v1`) is adopted: both projections at version 1, store `v1`, each with checkpoint
   *   `<name>_v1` = the legacy position (written before the registry rows, so a registered store
   *   never lacks its checkpoint). The legacy checkpoint is read only while the registry is empty:
   *   once adopted, a later rebuild into a store named `v1` starts from 0, not from it;
   * - otherwise a missing projection is registered at the code's version, store `v<version>`.
   * Concurrent starts are safe (upserts with `$setOnInsert`). Throws the driver's error.
   */
  async ensure(): Promise<void> {
    const existing = await this.collection.countDocuments({});
    const legacy = existing === 0 ? await this.checkpoints.findOne({ _id: LEGACY_CHECKPOINT_ID }) : null;
    for (const name of PROJECTION_NAMES) {
      const version = legacy ? 1 : this.codeVersions[name];
      if (legacy) await this.advanceCheckpoint(Number(legacy.position), `${name}_v1`, 1);
      const row = { version, store: `v${version}`, rebuilding: null, swap_lock: null, updated_at: now() };
      await retryDuplicateKey(() =>
        this.collection.updateOne({ _id: name }, { $setOnInsert: row }, { upsert: true, writeConcern: WRITE_CONCERN }),
      );
    }
    this.cached = null;
  }

  /**
   * Reads the registry now (from the primary, read concern `local`: a swap lock or repoint
   * acknowledged to its writer is seen by every later read; a majority snapshot could lag behind
   * it) and makes it the cached one unless a read sent later is cached already. `locked` is
   * computed by the server against its own clock, the same clock the swap's lease is set and
   * checked with, so no two processes disagree on whether a lease is over.
   * Throws when a projection has no registry row (the database was not opened by `MongoReadModel.connect`).
   */
  async read(): Promise<Registry> {
    const seq = ++this.registrySeq;
    const readAt = Date.now();
    const sentAt = performance.now();
    const docs = await this.collection
      .aggregate<RegistryDocument & { locked: boolean }>([{ $addFields: { locked: { $gt: ['$swap_lock.until', '$$NOW'] } } }], {
        readPreference: 'primary',
        readConcern: { level: 'local' },
      })
      .toArray();
    const rows = {} as Record<ProjectionName, RegistryDocument>;
    const locked = {} as Record<ProjectionName, boolean>;
    for (const name of PROJECTION_NAMES) {
      const doc = docs.find((d) => d._id === name);
      if (!doc) throw new Error(`projection_registry of database ${this.db.databaseName} has no row for projection '${name}'`);
      const { locked: isLocked, ...row } = doc;
      rows[name] = row;
      locked[name] = isLocked === true;
    }
    const registry: Registry = { rows, locked, readAt, sentAt, seq };
    if (!this.cached || this.cached.seq < seq) this.cached = registry;
    return registry;
  }

  /**
   * Runs a read of projection `name` (`fn` is given the store and its registry row) on the store
   * that serves, checked by a registry read sent with it ({@link readFollowingRegistry}: never
   * from a store swapped out before the read began, and a read that races a swap or a drop never
   * fails). `isEmpty` tells an answer that a dropped store would also give. Costs one small registry
   * query per read, shared among concurrent reads ({@link FreshReads}), run beside the read (two
   * after an empty answer). Throws `fn`'s error or the registry read's.
   */
  async readFollowing<T>(
    name: ProjectionName,
    fn: (store: string, row: RegistryDocument) => Promise<T>,
    isEmpty: (result: T) => boolean,
  ): Promise<T> {
    return readFollowingRegistry({
      known: this.cached,
      fresh: () => this.fresh.get(),
      storeOf: (registry: Registry) => registry.rows[name].store,
      run: (registry) => fn(registry.rows[name].store, registry.rows[name]),
      isEmpty,
      isGone: isStoreGone,
    });
  }

  /** The stored position of checkpoint `id` (a consumer's or a store's `<projection>_<store>`), `LOG_START` when none. */
  async readCheckpoint(id: string): Promise<LogPosition> {
    const row = await this.checkpoints.findOne({ _id: id });
    return logPosition(Number(row?.position ?? 0));
  }

  /** `$max`-upserts a checkpoint document (retrying when a concurrent upsert raced it); `version` is recorded with it. */
  async advanceCheckpoint(position: number, id: string, version: number): Promise<void> {
    const update = {
      $max: { position },
      $set: { version, updated_at: now() },
    };
    await retryDuplicateKey(() => this.checkpoints.updateOne({ _id: id }, update, { upsert: true, writeConcern: WRITE_CONCERN }));
  }
}
