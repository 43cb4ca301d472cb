import type { Collection, Db, MongoClient } from 'mongodb';
import { logPosition, type LogPosition, type RecordedEvent } from '@app/event-sourcing';
import { MongoSchoolDirectory } from '../mongo-school-directory';
import { MongoDataKeyStore } from '../mongo-data-key-store';
import { MongoIdempotencyStore } from '../mongo-idempotency-store';
import { type ProjectionStore, PROJECTION_NAMES, type ProjectionInfo, type ProjectionName } from '@app/runtime/projector';
import type { TraineeReadModel } from '@app/trainees/read';
import type { RebuildableStore, RebuildTarget } from '@app/runtime/rebuild';
import { applyToStore, eraseInStore } from './mongo-apply';
import { ensureStoreIndexes, providerCollections, traineeCollections } from './mongo-collections';
import {
  MAX_WRITE_ATTEMPTS,
  openDatabase,
  retryMultiWrite,
  settleAll,
  sleep,
  SWAP_LOCK_POLL_MS,
  type MongoReadModelOptions,
} from '../mongo-connection';
import { LIVE_WRITE_WINDOW_MS, WriteFence, WriteWindowClosed } from './write-fence';
import { MongoQueries } from './mongo-queries';
import { MongoRegistry, type Registry } from './mongo-registry';
import { claimRebuildStore, dropAgain, swapInto } from './mongo-swap';
import { MongoRebuildRuns } from './mongo-rebuild-runs';

export { DEFAULT_MONGO_DB_NAME, MONGO_COLLECTIONS, type MongoReadModelOptions } from '../mongo-connection';
export { mongoStoreCollections } from './mongo-collections';

/** Events an older version skipped ("parked"): only counted (`skipped_events`) and forgotten at a rebuild's swap, never written. */
const SKIPPED_EVENTS_COLLECTION = 'projection_parked_events';

/**
 * The read models on MongoDB (`MONGODB_URL`), with the projections, stores, registry and blue/green rebuild of `SqliteReadModel`:
 * `trainees_<store>` (`_id` the trainee id, the list's fields and the Trainee in `doc`), `providers_<store>` and `tokens_<store>`, each
 * store's checkpoint `<name>_<store>` in `projection_checkpoints`, and `projection_registry` naming each projection's store. Parts:
 * ../mongo-connection.ts, ./mongo-collections.ts, ./mongo-registry.ts, ./mongo-queries.ts, ./mongo-apply.ts, ./mongo-swap.ts.
 * Reads follow the registry and writes go without transactions, checkpoint after the documents (at-least-once, revision-guarded):
 * docs/DESIGN.md "What the MongoDB read model guarantees". The registry's `swap_lock`, a lease in the server's clock, plays SQLite's
 * write lock: no live batch starts while it is held, so the new store has every event when the registry is repointed.
 */
export class MongoReadModel extends MongoQueries implements TraineeReadModel, ProjectionStore, RebuildableStore {
  private constructor(
    private readonly client: MongoClient,
    db: Db,
    codeVersions: Partial<Record<ProjectionName, number>> = {},
    private readonly liveWriteWindowMs = LIVE_WRITE_WINDOW_MS,
  ) {
    super(db, new MongoRegistry(db, codeVersions));
    this.rebuildRuns = new MongoRebuildRuns(db);
  }

  /** The latest rebuild run of each projection (docs/observability.md "Rebuilds"). */
  readonly rebuildRuns: MongoRebuildRuns;

  /**
   * Connects (`mongodb://` or `mongodb+srv://`; database from the URL, else {@link DEFAULT_MONGO_DB_NAME}), registers the projections,
   * creates the indexes, and drops again any dropped store a late write re-created (`dropAgain`: its writer died before it could). An
   * Error naming the accepted schemes; the driver's when the server cannot be reached (after its server selection timeout,
   * `serverSelectionTimeoutMS` in the URL) or an index fails.
   */
  static async connect(url: string, options: MongoReadModelOptions = {}): Promise<MongoReadModel> {
    const { client, db } = await openDatabase(url, options.dbName);
    try {
      const readModel = new MongoReadModel(client, db, options.codeVersions, options.liveWriteWindowMs);
      await readModel.ensureRegistry();
      await readModel.ensureIndexes();
      await dropAgain(readModel.registry, null);
      return readModel;
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
  }

  /** Collection `schools`, in the same database. */
  schoolDirectory(): MongoSchoolDirectory {
    return new MongoSchoolDirectory(this.db);
  }

  /** Collection `idempotency_keys`, in the same database. */
  idempotencyStore(): MongoIdempotencyStore {
    return new MongoIdempotencyStore(this.db);
  }

  /** Collection `data_keys`, in the same database, outside the projections. */
  dataKeyStore(): MongoDataKeyStore {
    return new MongoDataKeyStore(this.db);
  }

  /** For collections kept beside the read models (the API's rate-limit windows). */
  get database(): Db {
    return this.db;
  }

  get databaseName(): string {
    return this.db.databaseName;
  }

  /** Registers every projection missing from the registry, as `SqliteReadModel`'s constructor does (`MongoRegistry.ensure`); idempotent. */
  async ensureRegistry(): Promise<void> {
    await this.registry.ensure();
  }

  /** Of every store the registry names, served or being rebuilt; idempotent. Throws the driver's error when an index cannot be built. */
  async ensureIndexes(): Promise<void> {
    const registry = await this.registry.read();
    const work: Promise<void>[] = [];
    for (const name of PROJECTION_NAMES) {
      const row = registry.rows[name];
      work.push(ensureStoreIndexes(this.db, name, row.store));
      if (row.rebuilding) work.push(ensureStoreIndexes(this.db, name, row.rebuilding));
    }
    await settleAll(work);
  }

  /** The lower of the two served stores' checkpoints; `LOG_START` when none. Reads the registry afresh. */
  async checkpoint(): Promise<LogPosition> {
    const { rows } = await this.registry.read();
    const ids = PROJECTION_NAMES.map((name) => `${name}_${rows[name].store}`);
    const docs = await this.registry.checkpoints.find({ _id: { $in: ids } }).toArray();
    return logPosition(Math.min(...ids.map((id) => Number(docs.find((d) => d._id === id)?.position ?? 0))));
  }

  /**
   * `ReadModelStore.eraseTrainee` in the served and rebuilding trainee stores, fenced as a live batch. The storage engine may keep the
   * bytes until reused or compacted, the oplog until it rolls over (docs/operations.md "Erasing a trainee").
   */
  async eraseTrainee(traineeId: string, ukprn: string, stream: readonly RecordedEvent[]): Promise<void> {
    await this.writeUnlocked(async ({ rows }, fence) => {
      for (const store of [rows.trainees.store, rows.trainees.rebuilding])
        if (store) await eraseInStore(this.registry, store, traineeId, ukprn, stream, fence);
    });
  }

  /**
   * Applies a batch (position order) to each projection's served store, then moves each checkpoint with `$max`. Waits while a swap lock
   * is held, and writes only within `liveWriteWindowMs` of its registry read, else starts over ({@link writeUnlocked}). Loads the
   * affected documents (trainees by `trainee_id_lower`, as on SQLite), folds them (`foldBatch`) and writes one unordered bulk operation
   * per document, guarded by `revision < new`: an E11000 on `_id` means already applied, checked by re-reading the revision. Tokens go
   * before providers, whose revision is what skips a redelivered token event. Throws the driver's error (the projector retries), and an
   * Error when a new trainee's id collides case-insensitively with another's (as SQLite's unique `trainee_id_lower`).
   */
  async applyBatch(events: RecordedEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.writeUnlocked(({ rows }, fence) =>
      settleAll([
        applyToStore(this.registry, 'trainees', rows.trainees.store, rows.trainees.version, events, fence),
        applyToStore(this.registry, 'providers', rows.providers.store, rows.providers.version, events, fence),
      ]),
    );
  }

  /**
   * `write`, safe to repeat, once no swap lock is held; started over when its fence closes, at most `MAX_WRITE_ATTEMPTS` times. When it
   * settles (done or failed) after its window, a write of it may have landed after a swap dropped its store, re-creating a collection
   * without its indexes: it then drops again what it re-created (`dropAgain`), which no write of its own can outlast.
   */
  private async writeUnlocked(write: (registry: Registry, fence: WriteFence) => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      let registry = await this.registry.read();
      while (PROJECTION_NAMES.some((name) => registry.locked[name])) {
        await sleep(SWAP_LOCK_POLL_MS);
        registry = await this.registry.read();
      }
      const fence = new WriteFence(registry.sentAt, this.liveWriteWindowMs);
      try {
        await write(registry, fence);
        return;
      } catch (error) {
        // Too slow to be sure its store was not swapped out and dropped: start over on the registry as it is now.
        if (!(error instanceof WriteWindowClosed) || attempt >= MAX_WRITE_ATTEMPTS) throw error;
      } finally {
        if (fence.closed()) await dropAgain(this.registry, storesOf(registry));
      }
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /**
   * As `SqliteReadModel.projectionInfo`, reading the registry afresh; `documents` is `estimatedDocumentCount` (collection metadata, so a
   * scrape scans nothing; exact except after an unclean shutdown).
   */
  async projectionInfo(): Promise<ProjectionInfo[]> {
    const { rows } = await this.registry.read();
    const codeVersions = this.registry.codeVersions;
    const ids = PROJECTION_NAMES.map((name) => `${name}_${rows[name].store}`);
    const [checkpoints, skipped, documents] = await Promise.all([
      this.registry.checkpoints.find({ _id: { $in: ids } }).toArray(),
      Promise.all(PROJECTION_NAMES.map((projection) => this.skipped().countDocuments({ projection }))),
      Promise.all(
        PROJECTION_NAMES.map((name) =>
          name === 'trainees'
            ? traineeCollections(this.db, rows[name].store).trainees.estimatedDocumentCount()
            : providerCollections(this.db, rows[name].store).providers.estimatedDocumentCount(),
        ),
      ),
    ]);
    return PROJECTION_NAMES.map((name, i) => {
      const row = rows[name];
      return {
        name,
        code_version: codeVersions[name],
        version: row.version,
        store: row.store,
        checkpoint: logPosition(Number(checkpoints.find((c) => c._id === ids[i])?.position ?? 0)),
        documents: documents[i],
        rebuild_needed: row.version !== codeVersions[name] || skipped[i] > 0,
        skipped_events: skipped[i],
        rebuilding: row.rebuilding ?? null,
      };
    });
  }

  /**
   * As `SqliteReadModel.beginRebuild`: a new store `v<code>` (or `v<code>_g<n>`, skipping any name with a collection or checkpoint left,
   * so it starts empty) claimed by compare-and-set on the registry, so two operators end on one store; or the one in progress. `swap()`:
   * `swapInto`. Throws the driver's error, or an Error when the claim keeps losing races.
   */
  async beginRebuild(name: ProjectionName): Promise<RebuildTarget> {
    const code = this.registry.codeVersions[name];
    const store = await claimRebuildStore(this.registry, name, code);
    await ensureStoreIndexes(this.db, name, store);
    const checkpointId = `${name}_${store}`;
    return {
      name,
      store,
      version: code,
      checkpoint: () => this.readCheckpoint(checkpointId),
      applyBatch: (events) => applyToStore(this.registry, name, store, code, events),
      swap: async (readAfter, options) => {
        const outcome = await swapInto(this.registry, name, store, code, readAfter, {
          ...options,
          liveWriteWindowMs: this.liveWriteWindowMs,
        });
        // The new store applied every event again, those an older version skipped included.
        await retryMultiWrite(() => this.skipped().deleteMany({ projection: name }));
        return outcome;
      },
    };
  }

  private skipped(): Collection<{ projection: string }> {
    return this.db.collection<{ projection: string }>(SKIPPED_EVENTS_COLLECTION);
  }

  /** A consumer's, or a store's `<projection>_<store>`; `LOG_START` when none. */
  async readCheckpoint(name: string): Promise<LogPosition> {
    return this.registry.readCheckpoint(name);
  }

  /** Unless a later one is stored already. Throws the driver's error. */
  async writeCheckpoint(name: string, position: LogPosition): Promise<void> {
    await this.registry.advanceCheckpoint(position, name, 0);
  }

  /** A consumer's, back as well as forward (the registry process manager's `CheckpointStore`). Throws the driver's error. */
  async resetCheckpoint(name: string, position: LogPosition): Promise<void> {
    await this.registry.resetCheckpoint(position, name);
  }
}

/** The stores a write on `registry` may write: each projection's served and rebuilding ones. */
function storesOf({ rows }: Registry): Record<ProjectionName, string[]> {
  const stores = (name: ProjectionName) => [rows[name].store, ...(rows[name].rebuilding ? [rows[name].rebuilding] : [])];
  return { trainees: stores('trainees'), providers: stores('providers') };
}
