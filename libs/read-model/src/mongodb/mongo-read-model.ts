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
import {
  evolve,
  evolveProvider,
  initialProviderState,
  lastNameKey,
  startCycle,
  type ProviderState,
  type Trainee,
  type TraineeState,
} from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import { decodeProviderEvent, decodeTraineeEvent } from '../event-codec';
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
import { PROJECTION_VERSION } from '../projection-versions';

/** Collection names: one per projection and projection version (DESIGN.md "Read models"). */
export const MONGO_COLLECTIONS = {
  trainees: `trainees_v${PROJECTION_VERSION}`,
  providers: `providers_v${PROJECTION_VERSION}`,
  tokens: `tokens_v${PROJECTION_VERSION}`,
  checkpoints: 'projection_checkpoints',
} as const;

/** `_id` of this projection version's checkpoint document in `projection_checkpoints`. */
const CHECKPOINT_ID = `main_v${PROJECTION_VERSION}`;

/** Database used when neither the options nor the connection string name one. */
export const DEFAULT_MONGO_DB_NAME = 'trainee_records';

/**
 * Every write waits for a majority of the replica set and for the journal, so an acknowledged
 * projection write survives a `kill -9` or a failover (DESIGN.md property 4). On a standalone
 * server `majority` means the one node.
 */
const WRITE_CONCERN: WriteConcernSettings = { w: 'majority', journal: true };

/** MongoDB's duplicate key error code (E11000). */
const DUPLICATE_KEY = 11000;

/** How many times a bulk write is re-sent for operations that lost an upsert race. */
const MAX_WRITE_ATTEMPTS = 3;

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
}

/**
 * The read models on MongoDB (selected by `MONGODB_URL`, DESIGN.md "Configuration"): one
 * document per trainee in `trainees_v1` (`_id` = trainee id; the fields the list filters and the
 * duplicate check need, and the {@link Trainee} itself in `doc`), providers in `providers_v1`,
 * tokens in `tokens_v1` and the projector's checkpoint in `projection_checkpoints`.
 *
 * Behaves exactly as the reference adapter `SqliteReadModel` (same filters, order, paging,
 * projection of provider and token events), with one difference forced by the store: MongoDB
 * has no atomic write across collections without transactions, so `applyBatch` writes the
 * documents first and the checkpoint after them. A crash in between redelivers the batch
 * (at-least-once), and applying it again changes nothing, because every trainee and provider
 * document records the stream revision it has applied and the writes are guarded by it
 * (DESIGN.md "Read models": "otherwise after it (at-least-once delivery + idempotent apply)").
 *
 * Transactions are deliberately not used: the revision guard relies on duplicate-key errors of
 * guarded upserts, which abort a transaction; the non-transactional path is correct on every
 * deployment (standalone, replica set, sharded).
 */
export class MongoReadModel implements TraineeReadModel, ProviderReadModel, ProjectionStore {
  private readonly trainees: Collection<TraineeDocument>;
  private readonly providers: Collection<ProviderDocument>;
  private readonly tokens: Collection<TokenDocument>;
  private readonly checkpoints: Collection<CheckpointDocument>;

  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
  ) {
    this.trainees = db.collection<TraineeDocument>(MONGO_COLLECTIONS.trainees);
    this.providers = db.collection<ProviderDocument>(MONGO_COLLECTIONS.providers);
    this.tokens = db.collection<TokenDocument>(MONGO_COLLECTIONS.tokens);
    this.checkpoints = db.collection<CheckpointDocument>(MONGO_COLLECTIONS.checkpoints);
  }

  /**
   * Connects to MongoDB and creates the indexes ({@link ensureIndexes}).
   *
   * Takes a `mongodb://` or `mongodb+srv://` connection string and optionally the database name
   * (default: the connection string's database, else {@link DEFAULT_MONGO_DB_NAME}). Returns the
   * connected read model; call {@link close} when done.
   *
   * Throws an `Error` naming the accepted schemes when `url` has another scheme, and the driver's
   * error when the server cannot be reached (after the driver's server selection timeout, 30 s by
   * default, overridable with `serverSelectionTimeoutMS` in the URL) or index creation fails.
   */
  /** The schools directory kept in the same database (collection `schools`). */
  schoolDirectory(): MongoSchoolDirectory {
    return new MongoSchoolDirectory(this.db);
  }

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
      const readModel = new MongoReadModel(client, db);
      await readModel.ensureIndexes();
      return readModel;
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
  }

  /** Name of the database this read model uses. */
  get databaseName(): string {
    return this.db.databaseName;
  }

  /**
   * Creates the indexes if missing (idempotent; called by {@link connect}):
   * - trainees: list filters `{ukprn, start_cycle, updated_at, created_position}` in both tie-break
   *   directions, so `updated_at` ascending and descending with `created_position` descending are
   *   both served without an in-memory sort (DESIGN.md "Indexes serve the list endpoint without
   *   scans"); the duplicate check `{ukprn, date_of_birth, training_route, last_name_key,
   *   created_position}`; unique `trainee_id_lower` (case-insensitive ids, API-FACTS §1.10).
   * - tokens: unique `token_hash` (authentication), `{ukprn, issued_at}` (a provider's tokens).
   * Throws the driver's error when an index cannot be built (for example existing duplicates).
   */
  async ensureIndexes(): Promise<void> {
    await Promise.all([
      this.trainees.createIndexes([
        { key: { ukprn: 1, start_cycle: 1, updated_at: 1, created_position: 1 }, name: 'list_updated_desc' },
        { key: { ukprn: 1, start_cycle: 1, updated_at: 1, created_position: -1 }, name: 'list_updated_asc' },
        {
          key: { ukprn: 1, date_of_birth: 1, training_route: 1, last_name_key: 1, created_position: 1 },
          name: 'duplicates',
        },
        { key: { trainee_id_lower: 1 }, name: 'trainee_id_lower', unique: true },
      ]),
      this.tokens.createIndexes([
        { key: { token_hash: 1 }, name: 'token_hash', unique: true },
        { key: { ukprn: 1, issued_at: 1, _id: 1 }, name: 'by_ukprn' },
      ]),
    ]);
  }

  /** The trainee by id, matched case-insensitively (API-FACTS §1.10), or null. */
  async getTrainee(traineeId: string): Promise<Trainee | null> {
    const row = await this.trainees.findOne({ trainee_id_lower: traineeId.toLowerCase() }, { projection: { doc: 1 } });
    return row ? row.doc : null;
  }

  /**
   * One page of a provider's trainees of one academic cycle (API-FACTS §14), as the SQLite
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
    const totalCount = await this.trainees.countDocuments(filter);
    const offset = Math.max(0, (q.page - 1) * q.perPage);
    if (totalCount === 0 || offset >= totalCount || q.perPage < 1) return { items: [], totalCount };
    const rows = await this.trainees
      .find(filter, { projection: { doc: 1 } })
      .sort({ updated_at: q.sortOrder === 'asc' ? 1 : -1, created_position: -1 })
      .skip(offset)
      .limit(q.perPage)
      .toArray();
    return { items: rows.map((r) => r.doc), totalCount };
  }

  /**
   * The provider's trainees with this date of birth and training route whose last name matches
   * ignoring case and spacing (`lastNameKey`, API-FACTS duplicate rule), oldest-created first.
   */
  async findDuplicateCandidates(ukprn: string, dateOfBirth: string, trainingRoute: string, lastName: string): Promise<Trainee[]> {
    const rows = await this.trainees
      .find(
        { ukprn, date_of_birth: dateOfBirth, training_route: trainingRoute, last_name_key: lastNameKey(lastName) },
        { projection: { doc: 1 } },
      )
      .sort({ created_position: 1 })
      .toArray();
    return rows.map((r) => r.doc);
  }

  /** The token whose SHA-256 hash (lower-case hex) is `tokenHash`, or null. */
  async findTokenByHash(tokenHash: string): Promise<TokenRecord | null> {
    const row = await this.tokens.findOne({ token_hash: tokenHash });
    return row ? toTokenRecord(row) : null;
  }

  /** The token with this id, or null. */
  async getToken(tokenId: string): Promise<TokenRecord | null> {
    const row = await this.tokens.findOne({ _id: tokenId });
    return row ? toTokenRecord(row) : null;
  }

  /** The provider's tokens, ordered by `issued_at` then token id. */
  async listTokens(ukprn: string): Promise<TokenRecord[]> {
    const rows = await this.tokens.find({ ukprn }).sort({ issued_at: 1, _id: 1 }).toArray();
    return rows.map(toTokenRecord);
  }

  /** The provider with this UKPRN, or null. */
  async getProvider(ukprn: string): Promise<ProviderRecord | null> {
    const row = await this.providers.findOne({ _id: ukprn });
    return row ? toProviderRecord(row) : null;
  }

  /** Every provider, ordered by UKPRN. */
  async listProviders(): Promise<ProviderRecord[]> {
    const rows = await this.providers.find({}).sort({ _id: 1 }).toArray();
    return rows.map(toProviderRecord);
  }

  /** Global position of the last event applied; 0 when none. */
  async checkpoint(): Promise<number> {
    const row = await this.checkpoints.findOne({ _id: CHECKPOINT_ID });
    return row ? Number(row.position) : 0;
  }

  /**
   * Applies a batch of events (in position order) and then advances the checkpoint to the last
   * event's position; the checkpoint never moves back (`$max`). An empty batch writes nothing.
   *
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
   * 5. Writes the checkpoint `{_id: 'main_v1', position}` with `$max`, after the documents
   *    (no cross-collection atomicity without transactions: at-least-once + idempotent apply).
   *
   * Throws the driver's error on any other failure (nothing is skipped: the projector retries
   * the batch), and an `Error` when a new trainee's id collides case-insensitively with another
   * trainee's id (the SQLite adapter fails on its unique `trainee_id_lower` too).
   */
  async applyBatch(events: RecordedEvent[]): Promise<void> {
    if (events.length === 0) return;
    const traineeWrites = await this.planTraineeWrites(events);
    const { tokenWrites, providerWrites } = await this.planProviderWrites(events);
    await settleAll([
      this.runBulk(this.trainees, traineeWrites),
      (async () => {
        await this.runBulk(this.tokens, tokenWrites);
        await this.runBulk(this.providers, providerWrites);
      })(),
    ]);
    await this.advanceCheckpoint(events[events.length - 1].position);
  }

  /** Closes the client and its connection pool. */
  async close(): Promise<void> {
    await this.client.close();
  }

  private async planTraineeWrites(events: RecordedEvent[]): Promise<PlannedWrite<TraineeDocument>[]> {
    const decoded = events.flatMap((recorded) => {
      const event = decodeTraineeEvent(recorded);
      return event ? [{ recorded, event }] : [];
    });
    if (decoded.length === 0) return [];
    const lowers = [...new Set(decoded.map((d) => d.event.data.trainee_id.toLowerCase()))];
    const stored = await this.trainees
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
    events: RecordedEvent[],
  ): Promise<{ tokenWrites: PlannedWrite<TokenDocument>[]; providerWrites: PlannedWrite<ProviderDocument>[] }> {
    const decoded = events.flatMap((recorded) => {
      const event = decodeProviderEvent(recorded);
      return event ? [{ recorded, event }] : [];
    });
    if (decoded.length === 0) return { tokenWrites: [], providerWrites: [] };
    const ukprns = [...new Set(decoded.map((d) => d.event.data.ukprn))];
    const stored = await this.providers.find({ _id: { $in: ukprns } }).toArray();
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

  async readCheckpoint(name: string): Promise<number> {
    const row = await this.checkpoints.findOne({ _id: name });
    return row?.position ?? 0;
  }

  async writeCheckpoint(name: string, position: number): Promise<void> {
    await this.advanceCheckpoint(position, name, 0);
  }

  /** `$max`-upserts a checkpoint document (retrying once when a concurrent upsert raced it). */
  private async advanceCheckpoint(position: number, id: string = CHECKPOINT_ID, version: number = PROJECTION_VERSION): Promise<void> {
    const update = {
      $max: { position },
      $set: { version, updated_at: new Date().toISOString() },
    };
    for (let attempt = 1; ; attempt++) {
      try {
        await this.checkpoints.updateOne({ _id: id }, update, { upsert: true, writeConcern: WRITE_CONCERN });
        return;
      } catch (error) {
        if (!(error instanceof MongoServerError) || error.code !== DUPLICATE_KEY || attempt >= MAX_WRITE_ATTEMPTS) throw error;
      }
    }
  }
}

/**
 * The MongoDB filter of one `status` value, translated from the SQLite adapter's `STATUS_SQL`
 * (API-FACTS §14.4); `today` is `YYYY-MM-DD`, UTC. Dates are `YYYY-MM-DD` strings, so string
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
