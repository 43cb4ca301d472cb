import type { Collection, Db } from 'mongodb';
import { logPosition, type LogPosition } from '@app/event-sourcing';
import { PROJECTION_NAMES, PROJECTION_VERSIONS, type ProjectionName } from '@app/runtime/projector';
import { isStoreGone, LEGACY_CHECKPOINT_ID, MONGO_COLLECTIONS, now, retryDuplicateKey } from '../mongo-connection';
import { FreshReads, readFollowingRegistry } from './fresh-read';

/** One checkpoint of `projection_checkpoints`: a store's (`<projection>_<store>`) or another consumer's. */
export interface CheckpointDocument {
  _id: string;
  position: number;
  version: number;
  updated_at: string;
}

export interface RegistryDocument {
  _id: ProjectionName;
  /** Of the code that built the served store. */
  version: number;
  /** Collection suffix. */
  store: string;
  /** A rebuild in progress's store. */
  rebuilding: string | null;
  /** Stores a swap dropped: never claimed again, and dropped again when a late write re-creates one (`dropAgain`, ./mongo-swap.ts). */
  dropped?: string[];
  /** A swap's lock (SQLite's write lock's stand-in); `until` is the lease's end in the server's clock (`$$NOW`). Null or absent: free. */
  swap_lock?: { token: string; until: Date } | null;
  updated_at: string;
}

export interface Registry {
  rows: Record<ProjectionName, RegistryDocument>;
  /** A lease not yet over, by the server's clock. */
  locked: Record<ProjectionName, boolean>;
  /** `Date.now()` when sent. */
  readAt: number;
  /** `performance.now()` when sent: a live batch's write window starts then. */
  sentAt: number;
  /** A newer read is never replaced by an older one. */
  seq: number;
}

/** The registry and checkpoints of one database, with the registry reads the read methods share ({@link readFollowing}). */
export class MongoRegistry {
  readonly checkpoints: Collection<CheckpointDocument>;
  readonly collection: Collection<RegistryDocument>;
  readonly codeVersions: Record<ProjectionName, number>;
  private cached: Registry | null = null;
  private registrySeq = 0;
  private readonly fresh = new FreshReads(() => this.read());

  constructor(
    readonly db: Db,
    codeVersions: Partial<Record<ProjectionName, number>> = {},
  ) {
    this.checkpoints = db.collection<CheckpointDocument>(MONGO_COLLECTIONS.checkpoints);
    this.collection = db.collection<RegistryDocument>(MONGO_COLLECTIONS.registry);
    this.codeVersions = { ...PROJECTION_VERSIONS, ...codeVersions };
  }

  /**
   * Registers every missing projection, as `SqliteReadModel`'s constructor does, safe when starts race (`$setOnInsert`). An empty
   * registry beside the legacy checkpoint `main_v1` is adopted: both projections at version 1, store `v1`, checkpoints written first;
   * the legacy checkpoint is read only while the registry is empty, so a later rebuild into `v1` starts from 0.
   */
  async ensure(): Promise<void> {
    const existing = await this.collection.countDocuments({});
    const legacy = existing === 0 ? await this.checkpoints.findOne({ _id: LEGACY_CHECKPOINT_ID }) : null;
    for (const name of PROJECTION_NAMES) {
      const version = legacy ? 1 : this.codeVersions[name];
      if (legacy) await this.advanceCheckpoint(Number(legacy.position), `${name}_v1`, 1);
      const row = { version, store: `v${version}`, rebuilding: null, swap_lock: null, updated_at: now() };
      await retryDuplicateKey(() => this.collection.updateOne({ _id: name }, { $setOnInsert: row }, { upsert: true }));
    }
    this.cached = null;
  }

  /**
   * From the primary with read concern `local`, so a lock or repoint acknowledged to its writer is seen (a majority snapshot could lag);
   * `locked` computed by the server's clock, which sets the leases. Throws for a projection without a row (not opened by `connect`).
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
   * `fn` on the store that serves, confirmed by a registry read sent beside it and shared among concurrent reads
   * ({@link readFollowingRegistry}); `isEmpty` tells an answer a dropped store would also give.
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

  /** A consumer's, or a store's `<projection>_<store>`; `LOG_START` when none. */
  async readCheckpoint(id: string): Promise<LogPosition> {
    const row = await this.checkpoints.findOne({ _id: id });
    return logPosition(Number(row?.position ?? 0));
  }

  /** Back as well as forward: `$set`-upserts, retrying a racing upsert. */
  async resetCheckpoint(position: LogPosition, id: string): Promise<void> {
    const update = { $set: { position, updated_at: now() } };
    await retryDuplicateKey(() => this.checkpoints.updateOne({ _id: id }, update, { upsert: true }));
  }

  /** `$max`-upserts, retrying a racing upsert. */
  async advanceCheckpoint(position: number, id: string, version: number): Promise<void> {
    const update = {
      $max: { position },
      $set: { version, updated_at: now() },
    };
    await retryDuplicateKey(() => this.checkpoints.updateOne({ _id: id }, update, { upsert: true }));
  }
}
