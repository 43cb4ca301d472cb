import { randomUUID } from 'node:crypto';
import { MongoSchoolDirectory } from '../schools/mongo-school-directory';
import {
  MongoBulkWriteError,
  MongoClient,
  MongoServerError,
  type AnyBulkWriteOperation,
  type Collection,
  type Db,
  type Document,
  type Filter,
  type WriteConcernSettings,
} from 'mongodb';
import { decodeProviderEvent, decodeTraineeEvent, evolve, evolveProvider, initialProviderState, lastNameKey, type ProviderState, startCycle, type Trainee, type TraineeState } from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import type {
  ProjectionStore,
  ProviderReadModel,
  ProviderRecord,
  StatusFilter,
  TokenRecord,
  TraineeListPage,
  TraineeListQuery,
  TraineeReadModel,
} from '../read-model.port';
import {
  PROJECTION_NAMES,
  PROJECTION_VERSION,
  PROJECTION_VERSIONS,
  type ProjectionInfo,
  type ProjectionName,
} from '../projection-versions';
import type { RebuildableStore, RebuildTarget } from '../rebuild';

/**
 * Collections shared by every store: the checkpoints and the registry naming the store each
 * projection serves from. The stores' own collections are named by {@link mongoStoreCollections}.
 */
export const MONGO_COLLECTIONS = {
  checkpoints: 'projection_checkpoints',
  registry: 'projection_registry',
} as const;

/**
 * The collections of store `store` of projection `name` (docs/DESIGN.md "Read models": a store is
 * named with its version, e.g. `v1`, `v1_g2`, `v2`): `trainees_<store>` for `trainees`;
 * `providers_<store>` and `tokens_<store>` for `providers`. Its checkpoint is the document
 * `<name>_<store>` of `projection_checkpoints`.
 */
export function mongoStoreCollections(name: ProjectionName, store: string): string[] {
  return name === 'trainees' ? [`trainees_${store}`] : [`providers_${store}`, `tokens_${store}`];
}

/**
 * `_id` of the single checkpoint of the read models before each projection had its own store
 * (both served from `*_v1`): found in a database without a registry, it is adopted as the
 * checkpoint of both `v1` stores (as `SqliteReadModel` does).
 */
const LEGACY_CHECKPOINT_ID = `main_v${PROJECTION_VERSION}`;

/** Database used when neither the options nor the connection string name one. */
export const DEFAULT_MONGO_DB_NAME = 'trainee_records';

/**
 * Every write waits for a majority of the replica set and for the journal, so an acknowledged
 * projection write survives a `kill -9` or a failover (docs/DESIGN.md property 4). On a standalone
 * server `majority` means the one node.
 */
const WRITE_CONCERN: WriteConcernSettings = { w: 'majority', journal: true };

/** MongoDB's duplicate key error code (E11000). */
const DUPLICATE_KEY = 11000;

/**
 * Server error codes of a read whose collection was dropped under it: NamespaceNotFound,
 * CursorNotFound, QueryPlanKilled ("collection dropped"), CursorKilled. A read that fails with
 * one of them right after a swap is retried on the store the registry now names.
 */
const STORE_GONE_CODES = new Set([26, 43, 175, 237]);

/** How many times a bulk write is re-sent for operations that lost an upsert race. */
const MAX_WRITE_ATTEMPTS = 3;

/**
 * How long a registry read serves the read methods (`getTrainee`, `listTrainees`, …) before it is
 * read again. Writes (`applyBatch`), `checkpoint()`, `projectionInfo()` and rebuilds always read
 * it afresh (and refresh the cache).
 */
export const MONGO_REGISTRY_TTL_MS = 200;

/**
 * Lease of the swap lock (see {@link MongoReadModel} "Swap"): the live projector waits while a
 * lock younger than this is held; the swapping process renews it after every catch-up batch. A
 * swapper that dies holding it delays the live projector by at most this long.
 */
const SWAP_LEASE_MS = 30_000;

/** How often a live `applyBatch` looks at the registry again while a swap lock is held. */
const SWAP_LOCK_POLL_MS = 25;

/** One trainee: the columns the SQLite table has, as fields, plus the document itself. */
interface TraineeDocument {
  /** The trainee id exactly as registered. */
  _id: string;
  trainee_id: string;
  trainee_id_lower: string;
  ukprn: string;
  start_cycle: number;
  state: string;
  itt_start_date: string;
  has_trn: boolean;
  updated_at: string;
  date_of_birth: string;
  training_route: string;
  last_name_key: string;
  /** Stream revision of the last event applied. */
  revision: number;
  /** Global position of the event that created the trainee (the SQLite adapter's `seq`). */
  created_position: number;
  doc: Trainee;
}

interface ProviderDocument {
  /** The UKPRN. */
  _id: string;
  ukprn: string;
  name: string;
  created_at: string;
  revision: number;
  state: ProviderState;
}

interface TokenDocument {
  /** The token id. */
  _id: string;
  token_id: string;
  token_hash: string;
  ukprn: string;
  status: 'active' | 'revoked';
  issued_at: string;
  revoked_at: string | null;
}

interface CheckpointDocument {
  _id: string;
  position: number;
  version: number;
  updated_at: string;
}

/** One projection's document of `projection_registry`. */
interface RegistryDocument {
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
interface Registry {
  rows: Record<ProjectionName, RegistryDocument>;
  /** Per projection: a swap lock with a lease not yet over (by the server's clock) was held. */
  locked: Record<ProjectionName, boolean>;
  /** `Date.now()` when the read was sent. */
  readAt: number;
  /** Order in which the read was sent (a newer read is never replaced by an older one). */
  seq: number;
}

/** The collections of one trainee store. */
interface TraineeCollections {
  store: string;
  trainees: Collection<TraineeDocument>;
}

/** The collections of one provider store. */
interface ProviderCollections {
  store: string;
  providers: Collection<ProviderDocument>;
  tokens: Collection<TokenDocument>;
}

/** A write of a bulk, with what is needed to tell "already applied" from a real conflict. */
interface PlannedWrite<T extends Document> {
  model: AnyBulkWriteOperation<T>;
  /** `_id` of the document written. */
  id: string;
  /** Revision the write sets behind a `revision < n` guard; null for unguarded writes. */
  revision: number | null;
}

/** Options of {@link MongoReadModel.connect}. */
export interface MongoReadModelOptions {
  /** Database to use; default: the one in the connection string, else `trainee_records`. */
  dbName?: string;
  /**
   * The projection versions this code builds (default {@link PROJECTION_VERSIONS}); as the
   * SQLite adapter's option of the same name, for tests of a version change.
   */
  codeVersions?: Partial<Record<ProjectionName, number>>;
}

/**
 * The read models on MongoDB (selected by `MONGODB_URL`, docs/DESIGN.md "Configuration"), with the
 * same two projections, stores, registry and blue/green rebuild as the reference adapter
 * `SqliteReadModel`:
 * - `trainees`: one document per trainee in `trainees_<store>` (`_id` = trainee id; the fields the
 *   list filters and the duplicate check need, and the {@link Trainee} itself in `doc`);
 * - `providers`: providers in `providers_<store>`, tokens in `tokens_<store>`;
 * - each store's checkpoint is the document `<name>_<store>` of `projection_checkpoints`;
 * - `projection_registry` has one document per projection (`_id` = name, `version`, `store`,
 *   `rebuilding`, `updated_at`, and the `swap_lock` described below) naming the store it serves.
 *
 * Reads follow the registry. The read methods use a registry read at most
 * {@link MONGO_REGISTRY_TTL_MS} old (a change stream would need a replica set; a registry query
 * per request would double the queries of every GET). Writes, `checkpoint()`, `projectionInfo()`
 * and rebuilds read it afresh and refresh that cache, so in this process a read that follows an
 * acknowledged write (read-your-writes: the in-process projector's `applyBatch`, or
 * `CheckpointWaiter` polling `checkpoint()`) uses a registry at least as new as the one the write
 * was applied under. A read of another client may see the previous store for up to the TTL (plus
 * one round trip) after a swap: it then reads the old store's documents, never an error — a read
 * that finds nothing or fails because the store was dropped looks at the registry again and, when
 * it names another store, is retried once there.
 *
 * Writes: MongoDB has no atomic write across collections without transactions, so `applyBatch`
 * writes the documents first and the checkpoint after them. A crash in between redelivers the
 * batch (at-least-once), and applying it again changes nothing, because every trainee and
 * provider document records the stream revision it has applied and the writes are guarded by it
 * (docs/DESIGN.md "Read models": "otherwise after it (at-least-once delivery + idempotent apply)").
 * Transactions are deliberately not used: the revision guard relies on duplicate-key errors of
 * guarded upserts, which abort a transaction; the non-transactional path is correct on every
 * deployment (standalone, replica set, sharded).
 *
 * Swap: see {@link beginRebuild} and the swap's comments. The registry's `swap_lock` (a lease in
 * the server's clock) plays the part of SQLite's write lock: the live projector does not start a
 * batch while it is held, so the new store has every event applied anywhere when the registry is
 * repointed.
 */
export class MongoReadModel implements TraineeReadModel, ProviderReadModel, ProjectionStore, RebuildableStore {
  private readonly checkpoints: Collection<CheckpointDocument>;
  private readonly registryCollection: Collection<RegistryDocument>;
  private readonly codeVersions: Record<ProjectionName, number>;
  private cached: Registry | null = null;
  private pendingRead: Promise<Registry> | null = null;
  private registrySeq = 0;

  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
    codeVersions: Partial<Record<ProjectionName, number>> = {},
  ) {
    this.checkpoints = db.collection<CheckpointDocument>(MONGO_COLLECTIONS.checkpoints);
    this.registryCollection = db.collection<RegistryDocument>(MONGO_COLLECTIONS.registry);
    this.codeVersions = { ...PROJECTION_VERSIONS, ...codeVersions };
  }

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
    const scheme = /^(mongodb(?:\+srv)?):\/\//.exec(url);
    if (!scheme) {
      throw new Error(
        `MONGODB_URL must be a MongoDB connection string starting with mongodb:// or mongodb+srv://, got '${redact(url)}'`,
      );
    }
    const dbName = options.dbName ?? (databaseInUrl(url, scheme[0].length) || DEFAULT_MONGO_DB_NAME);
    const client = new MongoClient(url, { ignoreUndefined: true });
    try {
      await client.connect();
      const db = client.db(dbName, { writeConcern: WRITE_CONCERN, ignoreUndefined: true });
      const readModel = new MongoReadModel(client, db, options.codeVersions);
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

  /** Name of the database this read model uses. */
  get databaseName(): string {
    return this.db.databaseName;
  }

  /**
   * Registers every projection missing from `projection_registry` (idempotent; called by
   * {@link connect}), as `SqliteReadModel`'s constructor does:
   * - a database with an empty registry and the legacy checkpoint `main_v1` (read models from
   *   before projections were versioned one by one, served from `trainees_v1`, `providers_v1`,
   *   `tokens_v1`) is adopted: both projections at version 1, store `v1`, each with checkpoint
   *   `<name>_v1` = the legacy position (written before the registry rows, so a registered store
   *   never lacks its checkpoint). The legacy checkpoint is read only while the registry is empty:
   *   once adopted, a later rebuild into a store named `v1` starts from 0, not from it;
   * - otherwise a missing projection is registered at the code's version, store `v<version>`.
   * Concurrent starts are safe (upserts with `$setOnInsert`). Throws the driver's error.
   */
  async ensureRegistry(): Promise<void> {
    const existing = await this.registryCollection.countDocuments({});
    const legacy = existing === 0 ? await this.checkpoints.findOne({ _id: LEGACY_CHECKPOINT_ID }) : null;
    for (const name of PROJECTION_NAMES) {
      const version = legacy ? 1 : this.codeVersions[name];
      if (legacy) await this.advanceCheckpoint(Number(legacy.position), `${name}_v1`, 1);
      const row = { version, store: `v${version}`, rebuilding: null, swap_lock: null, updated_at: now() };
      await retryDuplicateKey(() =>
        this.registryCollection.updateOne({ _id: name }, { $setOnInsert: row }, { upsert: true, writeConcern: WRITE_CONCERN }),
      );
    }
    this.cached = null;
  }

  /**
   * Creates the indexes of every store the registry names (served or being rebuilt), if missing
   * (idempotent; called by {@link connect}; {@link beginRebuild} does it for a new store). See
   * {@link ensureStoreIndexes}. Throws the driver's error when an index cannot be built.
   */
  async ensureIndexes(): Promise<void> {
    const registry = await this.readRegistry();
    const work: Promise<void>[] = [];
    for (const name of PROJECTION_NAMES) {
      const row = registry.rows[name];
      work.push(this.ensureStoreIndexes(name, row.store));
      if (row.rebuilding) work.push(this.ensureStoreIndexes(name, row.rebuilding));
    }
    await settleAll(work);
  }

  /**
   * Creates the indexes of one store (creating its collections):
   * - trainees: list filters `{ukprn, start_cycle, updated_at, created_position}` in both tie-break
   *   directions, so `updated_at` ascending and descending with `created_position` descending are
   *   both served without an in-memory sort (docs/DESIGN.md "Indexes serve the list endpoint without
   *   scans"); the duplicate check `{ukprn, date_of_birth, training_route, last_name_key,
   *   created_position}`; unique `trainee_id_lower` (case-insensitive ids, docs/reference/API-FACTS.md §1.10).
   * - providers: tokens' unique `token_hash` (authentication) and `{ukprn, issued_at}` (a
   *   provider's tokens); providers are read by `_id` only (created on first write).
   */
  private async ensureStoreIndexes(name: ProjectionName, store: string): Promise<void> {
    if (name === 'trainees') {
      await this.traineeCollections(store).trainees.createIndexes([
        { key: { ukprn: 1, start_cycle: 1, updated_at: 1, created_position: 1 }, name: 'list_updated_desc' },
        { key: { ukprn: 1, start_cycle: 1, updated_at: 1, created_position: -1 }, name: 'list_updated_asc' },
        {
          key: { ukprn: 1, date_of_birth: 1, training_route: 1, last_name_key: 1, created_position: 1 },
          name: 'duplicates',
        },
        { key: { trainee_id_lower: 1 }, name: 'trainee_id_lower', unique: true },
      ]);
      return;
    }
    await this.providerCollections(store).tokens.createIndexes([
      { key: { token_hash: 1 }, name: 'token_hash', unique: true },
      { key: { ukprn: 1, issued_at: 1, _id: 1 }, name: 'by_ukprn' },
    ]);
  }

  private traineeCollections(store: string): TraineeCollections {
    const [trainees] = mongoStoreCollections('trainees', store);
    return { store, trainees: this.db.collection<TraineeDocument>(trainees) };
  }

  private providerCollections(store: string): ProviderCollections {
    const [providers, tokens] = mongoStoreCollections('providers', store);
    return { store, providers: this.db.collection<ProviderDocument>(providers), tokens: this.db.collection<TokenDocument>(tokens) };
  }

  // ---------------------------------------------------------------------------------------------
  // The registry

  /**
   * Reads the registry now (from the primary, read concern `local`: a swap lock or repoint
   * acknowledged to its writer is seen by every later read; a majority snapshot could lag behind
   * it) and makes it the cached one unless a read sent later is cached already. `locked` is
   * computed by the server against its own clock, the same clock the swap's lease is set and
   * checked with, so no two processes disagree on whether a lease is over.
   * Throws when a projection has no registry row (the database was not opened by {@link connect}).
   */
  private async readRegistry(): Promise<Registry> {
    const seq = ++this.registrySeq;
    const readAt = Date.now();
    const docs = await this.registryCollection
      .aggregate<RegistryDocument & { locked: boolean }>(
        [{ $addFields: { locked: { $gt: ['$swap_lock.until', '$$NOW'] } } }],
        { readPreference: 'primary', readConcern: { level: 'local' } },
      )
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
    const registry: Registry = { rows, locked, readAt, seq };
    if (!this.cached || this.cached.seq < seq) this.cached = registry;
    return registry;
  }

  /** The registry for a read method: the cached one while younger than the TTL, else a new read (shared by concurrent callers). */
  private async registryForRead(): Promise<Registry> {
    if (this.cached && Date.now() - this.cached.readAt < MONGO_REGISTRY_TTL_MS) return this.cached;
    if (!this.pendingRead) {
      this.pendingRead = this.readRegistry().finally(() => {
        this.pendingRead = null;
      });
    }
    return this.pendingRead;
  }

  /**
   * Runs a read of projection `name` on the store the registry names. When the result is empty
   * (`isEmpty`) or the read failed because its collection was dropped, and a fresh registry read
   * names another store (a swap happened since the cached read), runs it once more there; so a
   * swap never fails a read nor makes a document disappear. Throws the read's error otherwise.
   */
  private async read<T>(name: ProjectionName, fn: (store: string) => Promise<T>, isEmpty: (result: T) => boolean): Promise<T> {
    const store = (await this.registryForRead()).rows[name].store;
    let result: { value: T } | { error: unknown };
    try {
      result = { value: await fn(store) };
      if (!isEmpty(result.value)) return result.value;
    } catch (error) {
      if (!isStoreGone(error)) throw error;
      result = { error };
    }
    const now = (await this.readRegistry()).rows[name].store;
    if (now !== store) return fn(now);
    if ('error' in result) throw result.error;
    return result.value;
  }

  // ---------------------------------------------------------------------------------------------
  // Reads

  /** The trainee by id, matched case-insensitively (docs/reference/API-FACTS.md §1.10), or null. */
  async getTrainee(traineeId: string): Promise<Trainee | null> {
    return this.read(
      'trainees',
      async (store) => {
        const row = await this.traineeCollections(store).trainees.findOne(
          { trainee_id_lower: traineeId.toLowerCase() },
          { projection: { doc: 1 } },
        );
        return row ? row.doc : null;
      },
      (t) => t === null,
    );
  }

  /**
   * One page of a provider's trainees of one academic cycle (docs/reference/API-FACTS.md §14), as the SQLite
   * adapter: filters `since` (updated_at ≥ since), `hasTrn`, `statuses` (OR of
   * {@link statusFilter}); ordered by `updated_at` in `sortOrder`, ties newest-created first;
   * page `page` (1-based) of `perPage`; `totalCount` counts every match. A page past the end is
   * empty with the true `totalCount`.
   */
  async listTrainees(q: TraineeListQuery): Promise<TraineeListPage> {
    const filter: Filter<TraineeDocument> = { ukprn: q.ukprn, start_cycle: q.academicCycle };
    if (q.since) filter.updated_at = { $gte: q.since };
    if (q.hasTrn !== undefined) filter.has_trn = q.hasTrn;
    if (q.statuses && q.statuses.length > 0) filter.$or = q.statuses.map((s) => statusFilter(s, q.today));
    const offset = Math.max(0, (q.page - 1) * q.perPage);
    return this.read(
      'trainees',
      async (store): Promise<TraineeListPage> => {
        const { trainees } = this.traineeCollections(store);
        const totalCount = await trainees.countDocuments(filter);
        if (totalCount === 0 || offset >= totalCount || q.perPage < 1) return { items: [], totalCount };
        const rows = await trainees
          .find(filter, { projection: { doc: 1 } })
          .sort({ updated_at: q.sortOrder === 'asc' ? 1 : -1, created_position: -1 })
          .skip(offset)
          .limit(q.perPage)
          .toArray();
        return { items: rows.map((r) => r.doc), totalCount };
      },
      (page) => page.items.length === 0,
    );
  }

  /**
   * The provider's trainees with this date of birth and training route whose last name matches
   * ignoring case and spacing (`lastNameKey`, docs/reference/API-FACTS.md duplicate rule), oldest-created first.
   */
  async findDuplicateCandidates(ukprn: string, dateOfBirth: string, trainingRoute: string, lastName: string): Promise<Trainee[]> {
    return this.read(
      'trainees',
      async (store) => {
        const rows = await this.traineeCollections(store)
          .trainees.find(
            { ukprn, date_of_birth: dateOfBirth, training_route: trainingRoute, last_name_key: lastNameKey(lastName) },
            { projection: { doc: 1 } },
          )
          .sort({ created_position: 1 })
          .toArray();
        return rows.map((r) => r.doc);
      },
      (rows) => rows.length === 0,
    );
  }

  /** The token whose SHA-256 hash (lower-case hex) is `tokenHash`, or null. */
  async findTokenByHash(tokenHash: string): Promise<TokenRecord | null> {
    return this.read(
      'providers',
      async (store) => {
        const row = await this.providerCollections(store).tokens.findOne({ token_hash: tokenHash });
        return row ? toTokenRecord(row) : null;
      },
      (t) => t === null,
    );
  }

  /** The token with this id, or null. */
  async getToken(tokenId: string): Promise<TokenRecord | null> {
    return this.read(
      'providers',
      async (store) => {
        const row = await this.providerCollections(store).tokens.findOne({ _id: tokenId });
        return row ? toTokenRecord(row) : null;
      },
      (t) => t === null,
    );
  }

  /** The provider's tokens, ordered by `issued_at` then token id. */
  async listTokens(ukprn: string): Promise<TokenRecord[]> {
    return this.read(
      'providers',
      async (store) => {
        const rows = await this.providerCollections(store).tokens.find({ ukprn }).sort({ issued_at: 1, _id: 1 }).toArray();
        return rows.map(toTokenRecord);
      },
      (rows) => rows.length === 0,
    );
  }

  /** The provider with this UKPRN, or null. */
  async getProvider(ukprn: string): Promise<ProviderRecord | null> {
    return this.read(
      'providers',
      async (store) => {
        const row = await this.providerCollections(store).providers.findOne({ _id: ukprn });
        return row ? toProviderRecord(row) : null;
      },
      (p) => p === null,
    );
  }

  /** Every provider, ordered by UKPRN. */
  async listProviders(): Promise<ProviderRecord[]> {
    return this.read(
      'providers',
      async (store) => {
        const rows = await this.providerCollections(store).providers.find({}).sort({ _id: 1 }).toArray();
        return rows.map(toProviderRecord);
      },
      (rows) => rows.length === 0,
    );
  }

  // ---------------------------------------------------------------------------------------------
  // The live projection

  /**
   * The lower of the two served stores' checkpoints (every event up to it is applied to both);
   * 0 when none. Reads the registry afresh (and refreshes the read cache), then both checkpoint
   * documents in one query.
   */
  async checkpoint(): Promise<number> {
    const { rows } = await this.readRegistry();
    const ids = PROJECTION_NAMES.map((name) => `${name}_${rows[name].store}`);
    const docs = await this.checkpoints.find({ _id: { $in: ids } }).toArray();
    return Math.min(...ids.map((id) => Number(docs.find((d) => d._id === id)?.position ?? 0)));
  }

  /**
   * Applies a batch of events (in position order) to the store each projection serves from and
   * then advances each store's checkpoint (`<name>_<store>`) to the last event's position; a
   * checkpoint never moves back (`$max`). An empty batch writes nothing.
   *
   * 0. Reads the registry afresh; while a swap holds a projection's lock (see {@link beginRebuild}),
   *    waits ({@link SWAP_LOCK_POLL_MS}) and reads it again, so no batch starts writing a store
   *    that is being swapped out.
   * 1. Decodes (and upcasts) each event with `decodeTraineeEvent` / `decodeProviderEvent`; other
   *    types are ignored but still count for the checkpoint.
   * 2. Loads the affected trainee documents in one query (by `trainee_id_lower`, as the SQLite
   *    adapter does) and the affected providers in one query.
   * 3. Folds the events in memory with the domain's `evolve` / `evolveProvider`, skipping events
   *    at or below a document's stored revision (idempotent apply).
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
  async applyBatch(events: RecordedEvent[]): Promise<void> {
    if (events.length === 0) return;
    let registry = await this.readRegistry();
    while (PROJECTION_NAMES.some((name) => registry.locked[name])) {
      await sleep(SWAP_LOCK_POLL_MS);
      registry = await this.readRegistry();
    }
    await settleAll([
      this.applyTo('trainees', registry.rows.trainees.store, registry.rows.trainees.version, events),
      this.applyTo('providers', registry.rows.providers.store, registry.rows.providers.version, events),
    ]);
  }

  /** Applies `events` to store `store` of projection `name`, then advances its checkpoint (`version` is recorded with it). */
  private async applyTo(name: ProjectionName, store: string, version: number, events: RecordedEvent[]): Promise<void> {
    if (events.length === 0) return;
    if (name === 'trainees') {
      const { trainees } = this.traineeCollections(store);
      await this.runBulk(trainees, await this.planTraineeWrites(trainees, events));
    } else {
      const { providers, tokens } = this.providerCollections(store);
      const { tokenWrites, providerWrites } = await this.planProviderWrites(providers, events);
      await this.runBulk(tokens, tokenWrites);
      await this.runBulk(providers, providerWrites);
    }
    await this.advanceCheckpoint(events[events.length - 1].position, `${name}_${store}`, version);
  }

  /** Closes the client and its connection pool. */
  async close(): Promise<void> {
    await this.client.close();
  }

  // ---------------------------------------------------------------------------------------------
  // Versions and blue/green rebuilds (RebuildableStore, docs/DESIGN.md "Read models")

  /**
   * Each projection as an operator sees it (`admin projections status`, `/readyz`), as
   * `SqliteReadModel.projectionInfo`: the code's version, the served store's version and name, its
   * checkpoint, its documents (trainees; providers for `providers`), whether the store was built
   * by another code version (`rebuild_needed`) and the store a rebuild is writing (`rebuilding`).
   * Reads the registry afresh. `documents` is `estimatedDocumentCount` (collection metadata, so a
   * `/readyz` probe does not scan the store; exact except after an unclean shutdown). Throws the
   * driver's error.
   */
  async projectionInfo(): Promise<ProjectionInfo[]> {
    const { rows } = await this.readRegistry();
    const ids = PROJECTION_NAMES.map((name) => `${name}_${rows[name].store}`);
    const [checkpoints, documents] = await Promise.all([
      this.checkpoints.find({ _id: { $in: ids } }).toArray(),
      Promise.all(
        PROJECTION_NAMES.map((name) =>
          name === 'trainees'
            ? this.traineeCollections(rows[name].store).trainees.estimatedDocumentCount()
            : this.providerCollections(rows[name].store).providers.estimatedDocumentCount(),
        ),
      ),
    ]);
    return PROJECTION_NAMES.map((name, i) => {
      const row = rows[name];
      return {
        name,
        code_version: this.codeVersions[name],
        version: row.version,
        store: row.store,
        checkpoint: Number(checkpoints.find((c) => c._id === ids[i])?.position ?? 0),
        documents: documents[i],
        rebuild_needed: row.version !== this.codeVersions[name],
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
   * - its collections and indexes are created ({@link ensureStoreIndexes}).
   *
   * Returns the {@link RebuildTarget}: `checkpoint()` and `applyBatch()` read and write the new
   * store (and its checkpoint `<name>_<store>`) only; `swap()` is described at
   * {@link swapInto}. Throws the driver's error, or an `Error` when the claim keeps losing races.
   */
  async beginRebuild(name: ProjectionName): Promise<RebuildTarget> {
    const code = this.codeVersions[name];
    const store = await this.claimRebuildStore(name, code);
    await this.ensureStoreIndexes(name, store);
    const checkpointId = `${name}_${store}`;
    return {
      name,
      store,
      version: code,
      checkpoint: () => this.readCheckpoint(checkpointId),
      applyBatch: (events) => this.applyTo(name, store, code, events),
      swap: (readAfter, options) => this.swapInto(name, store, code, readAfter, options),
    };
  }

  /** The store a rebuild of `name` writes: the one in progress, or a new one claimed in the registry. */
  private async claimRebuildStore(name: ProjectionName, code: number): Promise<string> {
    for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
      const row = (await this.readRegistry()).rows[name];
      if (row.rebuilding) return row.rebuilding;
      let store = `v${code}`;
      for (let g = 2; store === row.store || (await this.storeExists(name, store)); g++) store = `v${code}_g${g}`;
      const claimed = await this.registryCollection.updateOne(
        { _id: name, store: row.store, rebuilding: null },
        { $set: { rebuilding: store, updated_at: now() } },
        { writeConcern: WRITE_CONCERN },
      );
      if (claimed.matchedCount === 1) {
        await this.readRegistry();
        return store;
      }
    }
    throw new Error(`Could not start a rebuild of ${name}: projection_registry kept changing under it; try again`);
  }

  /** True when store `store` of `name` has a collection or a checkpoint document. */
  private async storeExists(name: ProjectionName, store: string): Promise<boolean> {
    const [collections, checkpoint] = await Promise.all([
      this.db.listCollections({ name: { $in: mongoStoreCollections(name, store) } }, { nameOnly: true }).toArray(),
      this.checkpoints.findOne({ _id: `${name}_${store}` }, { projection: { _id: 1 } }),
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
   * 4. catches `store` up once more from its checkpoint (see below);
   * 5. drops the old store's collections, then its checkpoint document, unless `keepOld`.
   *
   * Returns the previous store and whether it was dropped. Throws an `Error` when the lock cannot
   * be taken, when the lease ran out (the swapping process stalled longer than the lease: the live
   * projector may have resumed on the old store) or when the compare-and-set finds the registry
   * changed; the registry is then as before, the lock is freed, and running the rebuild again
   * resumes it and retries the swap. An error of step 4 or 5 comes after the swap took effect and
   * says so. Throws the driver's errors.
   */
  private async swapInto(
    name: ProjectionName,
    store: string,
    version: number,
    readAfter: (position: number) => Promise<RecordedEvent[]>,
    options: { keepOld: boolean },
  ): Promise<{ previous: string; dropped: boolean }> {
    const checkpointId = `${name}_${store}`;
    const token = randomUUID();
    const lease = { $add: ['$$NOW', SWAP_LEASE_MS] };
    const leaseLive = { $expr: { $gt: ['$swap_lock.until', '$$NOW'] } };
    const locked = await this.registryCollection.updateOne(
      {
        _id: name,
        rebuilding: store,
        $or: [{ swap_lock: null }, { $expr: { $lte: ['$swap_lock.until', '$$NOW'] } }],
      },
      [{ $set: { swap_lock: { token: { $literal: token }, until: lease }, updated_at: { $literal: now() } } }],
      { writeConcern: WRITE_CONCERN },
    );
    if (locked.matchedCount === 0) {
      throw new Error(`Cannot swap ${name} to ${store}: the registry does not name it as the rebuild in progress, or another swap holds the lock`);
    }

    let previous: string;
    try {
      previous = (await this.readRegistry()).rows[name].store;
      // Why the new store holds every event applied anywhere once this loop ends: a batch the
      // live projector applies to the old store either read the registry before the lock was
      // taken — then its events were read from the log before that, so this loop, whose reads
      // all come later and go on until the log has nothing more, applies them — or after it,
      // and then it waits for the repoint and writes the new store. So the new store is also
      // never written out of stream order by the live projector (applying revision n+1 to a
      // document that lacks revision n would make the revision guard skip n for good).
      for (;;) {
        const events = await readAfter(await this.readCheckpoint(checkpointId));
        if (events.length === 0) break;
        await this.applyTo(name, store, version, events);
        const renewed = await this.registryCollection.updateOne(
          { _id: name, 'swap_lock.token': token, ...leaseLive },
          [{ $set: { 'swap_lock.until': lease } }],
          { writeConcern: WRITE_CONCERN },
        );
        if (renewed.matchedCount === 0) {
          throw new Error(`Swap of ${name} to ${store} lost its lock (lease of ${SWAP_LEASE_MS} ms over): the live projector may have resumed on ${previous}`);
        }
      }
      const repointed = await this.registryCollection.updateOne(
        { _id: name, store: previous, rebuilding: store, 'swap_lock.token': token, ...leaseLive },
        { $set: { version, store, rebuilding: null, swap_lock: null, updated_at: now() } },
        { writeConcern: WRITE_CONCERN },
      );
      if (repointed.matchedCount === 0) {
        throw new Error(`Swap of ${name} to ${store} did not take effect: the registry no longer names ${previous} with this rebuild and lock`);
      }
    } catch (error) {
      await this.registryCollection
        .updateOne({ _id: name, 'swap_lock.token': token }, { $set: { swap_lock: null } }, { writeConcern: WRITE_CONCERN })
        .catch(() => undefined);
      throw error;
    }
    await this.readRegistry();

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
      for (;;) {
        const events = await readAfter(await this.readCheckpoint(checkpointId));
        if (events.length === 0) break;
        await this.applyTo(name, store, version, events);
      }
      if (options.keepOld || previous === store) return { previous, dropped: false };
      await settleAll(
        mongoStoreCollections(name, previous).map((collection) =>
          this.db.dropCollection(collection, { writeConcern: WRITE_CONCERN }).then(() => undefined),
        ),
      );
      await this.checkpoints.deleteOne({ _id: `${name}_${previous}` }, { writeConcern: WRITE_CONCERN });
      return { previous, dropped: true };
    } catch (error) {
      throw new Error(
        `${name} now serves from ${store} (swapped from ${previous}), but finishing the swap failed: ${String(error)}`,
        { cause: error },
      );
    }
  }

  private async planTraineeWrites(trainees: Collection<TraineeDocument>, events: RecordedEvent[]): Promise<PlannedWrite<TraineeDocument>[]> {
    const decoded = events.flatMap((recorded) => {
      const event = decodeTraineeEvent(recorded);
      return event ? [{ recorded, event }] : [];
    });
    if (decoded.length === 0) return [];
    const lowers = [...new Set(decoded.map((d) => d.event.data.trainee_id.toLowerCase()))];
    const stored = await trainees
      .find({ trainee_id_lower: { $in: lowers } }, { projection: { doc: 1, revision: 1, created_position: 1, trainee_id_lower: 1 } })
      .toArray();
    const byLower = new Map(stored.map((row) => [row.trainee_id_lower, row]));

    interface Entry {
      state: TraineeState;
      revision: number;
      createdPosition: number | null;
      dirty: boolean;
    }
    // Keyed by the id as the event carries it, as the SQLite adapter does.
    const entries = new Map<string, Entry>();
    for (const { recorded, event } of decoded) {
      const id = event.data.trainee_id;
      let entry = entries.get(id);
      if (!entry) {
        const row = byLower.get(id.toLowerCase());
        entry = row
          ? { state: { exists: true, trainee: row.doc }, revision: row.revision, createdPosition: row.created_position, dirty: false }
          : { state: { exists: false }, revision: -1, createdPosition: null, dirty: false };
        entries.set(id, entry);
      }
      if (recorded.streamRevision <= entry.revision) continue;
      entry.state = evolve(entry.state, event);
      entry.revision = recorded.streamRevision;
      entry.dirty = true;
      if (entry.state.exists && entry.createdPosition === null) entry.createdPosition = recorded.position;
    }

    const writes: PlannedWrite<TraineeDocument>[] = [];
    for (const entry of entries.values()) {
      if (!entry.dirty || !entry.state.exists) continue;
      const t = plain(entry.state.trainee);
      writes.push({
        id: t.trainee_id,
        revision: entry.revision,
        model: {
          updateOne: {
            filter: { _id: t.trainee_id, revision: { $lt: entry.revision } },
            update: {
              $set: {
                ukprn: t.ukprn,
                start_cycle: startCycle(t.details),
                state: t.state,
                itt_start_date: t.details.itt_start_date,
                has_trn: Boolean(t.trn),
                updated_at: t.updated_at,
                date_of_birth: t.details.date_of_birth,
                training_route: t.details.training_route,
                last_name_key: lastNameKey(t.details.last_name),
                revision: entry.revision,
                doc: t,
              },
              $setOnInsert: {
                trainee_id: t.trainee_id,
                trainee_id_lower: t.trainee_id.toLowerCase(),
                created_position: entry.createdPosition ?? events[events.length - 1].position,
              },
            },
            upsert: true,
          },
        },
      });
    }
    return writes;
  }

  private async planProviderWrites(
    providers: Collection<ProviderDocument>,
    events: RecordedEvent[],
  ): Promise<{ tokenWrites: PlannedWrite<TokenDocument>[]; providerWrites: PlannedWrite<ProviderDocument>[] }> {
    const decoded = events.flatMap((recorded) => {
      const event = decodeProviderEvent(recorded);
      return event ? [{ recorded, event }] : [];
    });
    if (decoded.length === 0) return { tokenWrites: [], providerWrites: [] };
    const ukprns = [...new Set(decoded.map((d) => d.event.data.ukprn))];
    const stored = await providers.find({ _id: { $in: ukprns } }).toArray();
    const byUkprn = new Map(stored.map((row) => [row._id, row]));

    interface Entry {
      state: ProviderState;
      revision: number;
      /** created_at of a provider not stored yet (from its first applied event, as SQLite). */
      createdAt: string | null;
      dirty: boolean;
    }
    interface TokenChange {
      issued?: { token_hash: string; ukprn: string; at: string };
      revokedAt?: string;
    }
    const entries = new Map<string, Entry>();
    const tokenChanges = new Map<string, TokenChange>();
    for (const { recorded, event } of decoded) {
      const ukprn = event.data.ukprn;
      let entry = entries.get(ukprn);
      if (!entry) {
        const row = byUkprn.get(ukprn);
        entry = row
          ? { state: row.state, revision: row.revision, createdAt: null, dirty: false }
          : { state: initialProviderState, revision: -1, createdAt: null, dirty: false };
        entries.set(ukprn, entry);
      }
      if (recorded.streamRevision <= entry.revision) continue;
      if (!byUkprn.has(ukprn) && entry.createdAt === null) {
        entry.createdAt = event.type === 'ProviderRegistered' ? event.data.at : recorded.metadata.occurredAt;
      }
      entry.state = evolveProvider(entry.state, event);
      entry.revision = recorded.streamRevision;
      entry.dirty = true;
      if (event.type === 'TokenIssued') {
        const change = tokenChanges.get(event.data.token_id) ?? {};
        // As SQLite's INSERT … ON CONFLICT DO NOTHING: the first issue of a token id wins.
        change.issued ??= { token_hash: event.data.token_hash, ukprn, at: event.data.at };
        tokenChanges.set(event.data.token_id, change);
      } else if (event.type === 'TokenRevoked') {
        const change = tokenChanges.get(event.data.token_id) ?? {};
        change.revokedAt = event.data.at;
        tokenChanges.set(event.data.token_id, change);
      }
    }

    const tokenWrites: PlannedWrite<TokenDocument>[] = [];
    for (const [tokenId, change] of tokenChanges) {
      const revoke = change.revokedAt !== undefined ? { status: 'revoked' as const, revoked_at: change.revokedAt } : null;
      if (change.issued) {
        const onInsert = {
          token_id: tokenId,
          token_hash: change.issued.token_hash,
          ukprn: change.issued.ukprn,
          issued_at: change.issued.at,
        };
        tokenWrites.push({
          id: tokenId,
          revision: null,
          model: {
            updateOne: {
              filter: { _id: tokenId },
              update: revoke
                ? { $setOnInsert: onInsert, $set: revoke }
                : { $setOnInsert: { ...onInsert, status: 'active', revoked_at: null } },
              upsert: true,
            },
          },
        });
      } else if (revoke) {
        // As SQLite's UPDATE: revoking a token that is not stored changes nothing.
        tokenWrites.push({ id: tokenId, revision: null, model: { updateOne: { filter: { _id: tokenId }, update: { $set: revoke } } } });
      }
    }

    const providerWrites: PlannedWrite<ProviderDocument>[] = [];
    for (const [ukprn, entry] of entries) {
      if (!entry.dirty) continue;
      providerWrites.push({
        id: ukprn,
        revision: entry.revision,
        model: {
          updateOne: {
            filter: { _id: ukprn, revision: { $lt: entry.revision } },
            update: {
              $set: { name: entry.state.name ?? '', revision: entry.revision, state: plain(entry.state) },
              $setOnInsert: { ukprn, created_at: entry.createdAt ?? '' },
            },
            upsert: true,
          },
        },
      });
    }
    return { tokenWrites, providerWrites };
  }

  /**
   * Runs `writes` as unordered bulk writes with the majority write concern. Duplicate-key
   * failures are resolved: a guarded write whose document now holds its revision or a newer one
   * was already applied; one whose document holds an older revision lost an upsert race and is
   * re-sent; a guarded write whose document does not exist collided on another unique index
   * and is an error. Unguarded writes that failed with E11000 are re-sent. Any other failure,
   * or a write concern error, is thrown.
   */
  private async runBulk<T extends { _id: string; revision?: number }>(coll: Collection<T>, writes: PlannedWrite<T>[]): Promise<void> {
    let pending = writes;
    for (let attempt = 1; pending.length > 0; attempt++) {
      try {
        await coll.bulkWrite(
          pending.map((w) => w.model),
          { ordered: false, writeConcern: WRITE_CONCERN },
        );
        return;
      } catch (error) {
        if (!(error instanceof MongoBulkWriteError) || error.result.getWriteConcernError()) throw error;
        const writeErrors = error.result.getWriteErrors();
        if (writeErrors.length === 0 || writeErrors.some((e) => e.code !== DUPLICATE_KEY)) throw error;
        const failed = writeErrors.map((e) => ({ write: pending[e.index], message: e.errmsg ?? 'E11000 duplicate key' }));
        const guardedIds = failed.filter((f) => f.write.revision !== null).map((f) => f.write.id);
        const storedRevision = new Map<string, number>();
        if (guardedIds.length > 0) {
          const rows = await coll
            .find({ _id: { $in: guardedIds } } as Filter<T>, { projection: { revision: 1 } })
            .toArray();
          for (const row of rows) storedRevision.set(String(row._id), Number(row.revision));
        }
        const retry: PlannedWrite<T>[] = [];
        for (const { write, message } of failed) {
          if (write.revision === null) {
            retry.push(write);
            continue;
          }
          const stored = storedRevision.get(write.id);
          if (stored === undefined) {
            throw new Error(`Cannot project ${coll.collectionName} document '${write.id}': it conflicts with another document on a unique index (${message})`);
          }
          if (stored < write.revision) retry.push(write);
        }
        if (retry.length > 0 && attempt >= MAX_WRITE_ATTEMPTS) {
          throw new Error(`Gave up writing ${retry.length} ${coll.collectionName} document(s) after ${attempt} attempts: ${failed[0].message}`);
        }
        pending = retry;
      }
    }
  }

  /** The stored position of checkpoint `name` (a consumer's or a store's `<projection>_<store>`), 0 when none. */
  async readCheckpoint(name: string): Promise<number> {
    const row = await this.checkpoints.findOne({ _id: name });
    return Number(row?.position ?? 0);
  }

  /** Stores `position` for consumer `name` unless a later one is stored already. Throws the driver's error. */
  async writeCheckpoint(name: string, position: number): Promise<void> {
    await this.advanceCheckpoint(position, name, 0);
  }

  /** `$max`-upserts a checkpoint document (retrying when a concurrent upsert raced it). */
  private async advanceCheckpoint(position: number, id: string, version: number): Promise<void> {
    const update = {
      $max: { position },
      $set: { version, updated_at: now() },
    };
    await retryDuplicateKey(() => this.checkpoints.updateOne({ _id: id }, update, { upsert: true, writeConcern: WRITE_CONCERN }));
  }
}

/**
 * The MongoDB filter of one `status` value, translated from the SQLite adapter's `STATUS_SQL`
 * (docs/reference/API-FACTS.md §14.4); `today` is `YYYY-MM-DD`, UTC. Dates are `YYYY-MM-DD` strings, so string
 * order is date order (as in SQLite).
 */
function statusFilter(status: StatusFilter, today: string): Filter<TraineeDocument> {
  switch (status) {
    case 'course_not_yet_started':
      return { itt_start_date: { $gt: today }, state: { $nin: ['draft', 'deferred', 'withdrawn'] } };
    case 'in_training':
      return { state: { $in: ['submitted_for_trn', 'trn_received', 'recommended_for_award'] }, itt_start_date: { $lte: today } };
    case 'deferred':
      return { state: 'deferred' };
    case 'awarded':
      return { state: 'awarded' };
    case 'withdrawn':
      return { state: 'withdrawn' };
  }
}

function toTokenRecord(row: TokenDocument): TokenRecord {
  return { token_id: row._id, ukprn: row.ukprn, status: row.status, issued_at: row.issued_at, revoked_at: row.revoked_at ?? null };
}

function toProviderRecord(row: ProviderDocument): ProviderRecord {
  return { ukprn: row._id, name: row.name, created_at: row.created_at };
}

/**
 * A JSON round trip: the stored document then equals what the SQLite adapter returns (keys
 * holding `undefined` are dropped, never stored as BSON null).
 */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** The database named in a connection string's path (`…/name?…`), or '' when none. */
function databaseInUrl(url: string, schemeLength: number): string {
  const rest = url.slice(schemeLength);
  const slash = rest.indexOf('/');
  if (slash < 0) return '';
  return decodeURIComponent(rest.slice(slash + 1).split('?')[0]);
}

/** The URL with any password replaced, for error messages. */
function redact(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
}

/** Waits for every promise, then throws the first rejection (so no write is left running). */
async function settleAll(promises: Promise<void>[]): Promise<void> {
  const results = await Promise.allSettled(promises);
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) throw failure.reason;
}

/** True when `error` is a server error of a read whose collection was dropped under it. */
function isStoreGone(error: unknown): boolean {
  return error instanceof MongoServerError && STORE_GONE_CODES.has(Number(error.code));
}

/** Runs `write`, again when it fails with E11000 (an upsert that lost a race), at most {@link MAX_WRITE_ATTEMPTS} times. */
async function retryDuplicateKey<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof MongoServerError) || error.code !== DUPLICATE_KEY || attempt >= MAX_WRITE_ATTEMPTS) throw error;
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function now(): string {
  return new Date().toISOString();
}
