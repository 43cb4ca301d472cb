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
import { MAX_WRITE_ATTEMPTS, openDatabase, settleAll, sleep, SWAP_LOCK_POLL_MS, type MongoReadModelOptions } from '../mongo-connection';
import { LIVE_WRITE_WINDOW_MS, WriteFence, WriteWindowClosed } from './write-fence';
import { MongoQueries } from './mongo-queries';
import { MongoRegistry, type Registry } from './mongo-registry';
import { claimRebuildStore, swapInto } from './mongo-swap';
import { MongoRebuildRuns } from './mongo-rebuild-runs';

export { DEFAULT_MONGO_DB_NAME, MONGO_COLLECTIONS, type MongoReadModelOptions } from '../mongo-connection';
export { mongoStoreCollections } from './mongo-collections';

/**
 * The events an older version of the service skipped ("parked") after failed attempts, one document
 * each (`projection` names its projection); this version never writes it, reads only its count
 * (`ProjectionInfo.skipped_events`) and forgets a projection's at its rebuild's swap.
 */
const SKIPPED_EVENTS_COLLECTION = 'projection_parked_events';

/**
 * The read models on MongoDB (selected by `MONGODB_URL`, docs/operations.md "Configuration"), with the
 * same two projections, stores, registry and blue/green rebuild as the reference adapter
 * `SqliteReadModel`:
 * - `trainees`: one document per trainee in `trainees_<store>` (`_id` = trainee id; the fields the
 *   list filters and the duplicate check need, and the {@link Trainee} itself in `doc`);
 * - `providers`: providers in `providers_<store>`, tokens in `tokens_<store>`;
 * - each store's checkpoint is the document `<name>_<store>` of `projection_checkpoints`;
 * - `projection_registry` has one document per projection (`_id` = name, `version`, `store`,
 *   `rebuilding`, `updated_at`, and the `swap_lock` described below) naming the store it serves.
 *
 * The parts, by concern: the connection and options (../mongo-connection.ts), the stores'
 * collections and indexes (./mongo-collections.ts), the registry and checkpoints
 * (./mongo-registry.ts), the queries (./mongo-queries.ts), the bulk writes of a batch
 * (./mongo-apply.ts) and the blue/green swap (./mongo-swap.ts).
 *
 * Reads follow the registry: each read runs on the store of the newest registry read this process
 * holds while a registry read sent with it confirms that store still serves, and runs again on the
 * new store when it does not (`MongoRegistry.readFollowing`; docs/DESIGN.md "What the MongoDB read
 * model guarantees"). So a read never answers from a store that was swapped out before it began,
 * in this process or any other, and a read that races a swap or a drop never fails.
 *
 * Writes: MongoDB has no atomic write across collections without transactions, so `applyBatch`
 * writes the documents first and the checkpoint after them. A crash in between redelivers the
 * batch (at-least-once), and applying it again changes nothing, because every trainee and
 * provider document records the stream revision it has applied and the writes are guarded by it
 * (docs/DESIGN.md "Read models": "otherwise after it (MongoDB): at-least-once delivery, idempotent
 * apply"). Transactions are deliberately not used: the revision guard relies on duplicate-key
 * errors of guarded upserts, which abort a transaction; the non-transactional path is correct on
 * every deployment (standalone, replica set, sharded). What readers may see meanwhile:
 * docs/DESIGN.md "What the MongoDB read model guarantees".
 *
 * Swap: see {@link beginRebuild} and `swapInto` (./mongo-swap.ts). The registry's `swap_lock` (a lease in
 * the server's clock) plays the part of SQLite's write lock: the live projector does not start a
 * batch while it is held, so the new store has every event applied anywhere when the registry is
 * repointed.
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
   * Connects to MongoDB, registers the projections ({@link ensureRegistry}) and creates the
   * indexes ({@link ensureIndexes}).
   *
   * Takes a `mongodb://` or `mongodb+srv://` connection string and optionally the database name
   * (default: the connection string's database, else {@link DEFAULT_MONGO_DB_NAME}) and the code
   * versions. Returns the connected read model; call {@link close} when done.
   *
   * Throws an `Error` naming the accepted schemes when `url` has another scheme, and the driver's
   * error when the server cannot be reached (after the driver's server selection timeout, 30 s by
   * default, overridable with `serverSelectionTimeoutMS` in the URL) or index creation fails.
   */
  static async connect(url: string, options: MongoReadModelOptions = {}): Promise<MongoReadModel> {
    const { client, db } = await openDatabase(url, options.dbName);
    try {
      const readModel = new MongoReadModel(client, db, options.codeVersions, options.liveWriteWindowMs);
      await readModel.ensureRegistry();
      await readModel.ensureIndexes();
      return readModel;
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
  }

  /** The schools directory kept in the same database (collection `schools`). */
  schoolDirectory(): MongoSchoolDirectory {
    return new MongoSchoolDirectory(this.db);
  }

  /** The idempotency keys kept in the same database (collection `idempotency_keys`). */
  idempotencyStore(): MongoIdempotencyStore {
    return new MongoIdempotencyStore(this.db);
  }

  /** The trainees' data keys kept in the same database (collection `data_keys`, outside the projections). */
  dataKeyStore(): MongoDataKeyStore {
    return new MongoDataKeyStore(this.db);
  }

  /** The database itself, for the service's collections kept beside the read models (the API's rate-limit windows). */
  get database(): Db {
    return this.db;
  }

  /** Name of the database this read model uses. */
  get databaseName(): string {
    return this.db.databaseName;
  }

  /**
   * Registers every projection missing from `projection_registry` (idempotent; called by
   * {@link connect}), as `SqliteReadModel`'s constructor does; see `MongoRegistry.ensure`.
   * Throws the driver's error.
   */
  async ensureRegistry(): Promise<void> {
    await this.registry.ensure();
  }

  /**
   * Creates the indexes of every store the registry names (served or being rebuilt), if missing
   * (idempotent; called by {@link connect}; {@link beginRebuild} does it for a new store). See
   * `ensureStoreIndexes`. Throws the driver's error when an index cannot be built.
   */
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

  // ---------------------------------------------------------------------------------------------
  // The live projection

  /**
   * The lower of the two served stores' checkpoints (every event up to it is applied to both);
   * `LOG_START` when none. Reads the registry afresh (and refreshes the read cache), then both checkpoint
   * documents in one query.
   */
  async checkpoint(): Promise<LogPosition> {
    const { rows } = await this.registry.read();
    const ids = PROJECTION_NAMES.map((name) => `${name}_${rows[name].store}`);
    const docs = await this.registry.checkpoints.find({ _id: { $in: ids } }).toArray();
    return logPosition(Math.min(...ids.map((id) => Number(docs.find((d) => d._id === id)?.position ?? 0))));
  }

  /**
   * Applies a batch of events (in position order) to the store each projection serves from and
   * then advances each store's checkpoint (`<name>_<store>`) to the last event's position; a
   * checkpoint never moves back (`$max`). An empty batch writes nothing.
   *
   * 0. Reads the registry afresh; while a swap holds a projection's lock (see {@link beginRebuild}),
   *    waits ({@link SWAP_LOCK_POLL_MS}) and reads it again, so no batch starts writing a store
   *    that is being swapped out. The batch may write for `liveWriteWindowMs` (30 s) from that
   *    registry read, checked before each write (./write-fence.ts): a slower batch stops and starts
   *    over on the registry as it is then (at most 3 times), so no write reaches a store after the
   *    swap that replaced it has dropped it (docs/DESIGN.md "What the MongoDB read model guarantees").
   * 1. Decodes (and upcasts) each event for the trainee and provider projections
   *    (`libs/trainees/read/trainee-projection.ts`, `libs/providers/read/provider-projection.ts`);
   *    other types are ignored but still count for the checkpoint.
   * 2. Loads the affected trainee documents in one query (by `trainee_id_lower`, as the SQLite
   *    adapter does) and the affected providers, with their tokens, in two.
   * 3. Folds the batch in memory into the changed documents with the projections (`foldBatch`),
   *    which skip events at or below a document's stored revision (idempotent apply).
   * 4. Writes with unordered bulk writes, one operation per document (so the server's freedom
   *    to reorder unordered operations cannot matter): upserts guarded by
   *    `revision < newRevision`. A guarded upsert that finds a newer document fails with E11000
   *    on `_id`; that means "already applied" and is checked by re-reading the revision. Tokens
   *    are written before the provider documents, because a provider's revision is what makes a
   *    redelivered token event be skipped.
   * 5. Writes the checkpoints with `$max`, after the documents (no cross-collection atomicity
   *    without transactions: at-least-once + idempotent apply).
   *
   * Throws the driver's error on any other failure (nothing is skipped: the projector retries
   * the batch), and an `Error` when a new trainee's id collides case-insensitively with another
   * trainee's id (the SQLite adapter fails on its unique `trainee_id_lower` too).
   */
  /**
   * See `ReadModelStore.eraseTrainee`: in the served trainee store and the one being rebuilt,
   * fenced as a live batch is ({@link writeUnlocked}), so it never re-creates a store a swap has
   * just dropped. The storage engine may keep the deleted bytes in its files until they are reused
   * or compacted, and the oplog until it rolls over (docs/DESIGN.md "Personal data",
   * docs/operations.md "Erasing a trainee").
   */
  async eraseTrainee(traineeId: string, ukprn: string, stream: readonly RecordedEvent[]): Promise<void> {
    await this.writeUnlocked(async ({ rows }, fence) => {
      for (const store of [rows.trainees.store, rows.trainees.rebuilding])
        if (store) await eraseInStore(this.registry, store, traineeId, ukprn, stream, fence);
    });
  }

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
   * Runs `write` on the registry as read once no swap lock is held, with the fence of that read
   * (./write-fence.ts): a write that would land after its window throws `WriteWindowClosed`, and
   * `write` starts over on the registry as it is then (at most `MAX_WRITE_ATTEMPTS` times).
   * `write` must be safe to repeat.
   */
  private async writeUnlocked(write: (registry: Registry, fence: WriteFence) => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      let registry = await this.registry.read();
      while (PROJECTION_NAMES.some((name) => registry.locked[name])) {
        await sleep(SWAP_LOCK_POLL_MS);
        registry = await this.registry.read();
      }
      try {
        await write(registry, new WriteFence(registry.sentAt, this.liveWriteWindowMs));
        return;
      } catch (error) {
        // Too slow to be sure its store was not swapped out and dropped: start over on the registry as it is now.
        if (!(error instanceof WriteWindowClosed) || attempt >= MAX_WRITE_ATTEMPTS) throw error;
      }
    }
  }

  /** Closes the client and its connection pool. */
  async close(): Promise<void> {
    await this.client.close();
  }

  // ---------------------------------------------------------------------------------------------
  // Versions and blue/green rebuilds (RebuildableStore, docs/DESIGN.md "Read models")

  /**
   * Each projection as an operator sees it (`admin projections status`, the metrics), as
   * `SqliteReadModel.projectionInfo`: the code's version, the served store's version and name, its
   * checkpoint, its documents (trainees; providers for `providers`), whether the store was built
   * by another code version or holds events an older version skipped (`rebuild_needed`,
   * `skipped_events`) and the store a rebuild is writing (`rebuilding`).
   * Reads the registry afresh. `documents` is `estimatedDocumentCount` (collection metadata, so a
   * scrape does not scan the store; exact except after an unclean shutdown). Throws the
   * driver's error.
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
   * Starts a rebuild of projection `name` into a new store, or resumes the one in progress (the
   * registry's `rebuilding`), as `SqliteReadModel.beginRebuild`:
   * - a new store is named `v<code version>`, else `v<code version>_g<n>` with the smallest
   *   n ≥ 2, skipping the served store's name and any name that has a collection or a checkpoint
   *   document (a kept old store, or the leftovers of an interrupted drop), so a new store always
   *   starts empty, from position 0;
   * - it is claimed with a compare-and-set on the registry (`rebuilding: null` → the name), so two
   *   operators starting at once end up on the same store;
   * - its collections and indexes are created (`ensureStoreIndexes`).
   *
   * Returns the {@link RebuildTarget}: `checkpoint()` and `applyBatch()` read and write the new
   * store (and its checkpoint `<name>_<store>`) only; `swap()` is described at
   * `swapInto` (./mongo-swap.ts). Throws the driver's error, or an `Error` when the claim keeps losing races.
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
        await this.skipped().deleteMany({ projection: name });
        return outcome;
      },
    };
  }

  private skipped(): Collection<{ projection: string }> {
    return this.db.collection<{ projection: string }>(SKIPPED_EVENTS_COLLECTION);
  }

  /** The stored position of checkpoint `name` (a consumer's or a store's `<projection>_<store>`), `LOG_START` when none. */
  async readCheckpoint(name: string): Promise<LogPosition> {
    return this.registry.readCheckpoint(name);
  }

  /** Stores `position` for consumer `name` unless a later one is stored already. Throws the driver's error. */
  async writeCheckpoint(name: string, position: LogPosition): Promise<void> {
    await this.registry.advanceCheckpoint(position, name, 0);
  }
}
