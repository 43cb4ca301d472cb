import { Database, makePrivateDirectory } from '@app/sqlite';
import { join } from 'node:path';
import type { TraineeSnapshot } from '@app/trainees/decider';
import type { Trainee, ApiVersion } from '@app/trainees/record';
import { logPosition, type LogPosition, type RecordedEvent } from '@app/event-sourcing';
import {
  CHANGE_FEED_SINCE_VERSION,
  PROJECTION_VERSIONS,
  type ProjectionInfo,
  type ProjectionName,
  type ReadModelStore,
  type StreamBuild,
} from '@app/runtime/projector';
import type { StoredChange } from '@app/changes';
import type { OwnedAnswer, TraineeAnswerPage, TraineeEnding, TraineeListPage, TraineeListQuery } from '@app/trainees/read';
import type { ProviderRecord, TokenRecord } from '@app/providers/read';
import type { RebuildableStore, RebuildTarget } from '@app/runtime/rebuild';
import { ProviderTables } from './provider-tables';
import { TraineeTables } from './trainee-tables';
import { SqliteRebuildTarget } from './sqlite-rebuild-target';
import { endingsIn, eraseFromReadStore } from './erasure';
import { openReadStoreFile, READ_STORE_FILE } from './read-store-file';
import { guardDamage } from './read-store-damage';
import { SqliteStreamBuild, type StreamBuildOptions } from './sqlite-stream-build';
import { projectionInfoOf, registerProjections, registryStatements, type RegistryRow } from './registry-statements';
import { SqliteRebuildRuns } from './sqlite-rebuild-runs';
import { dropRecordedStores, type SliceOptions } from './drop-in-slices';
import { writeAsSoonAsFree } from './shared-write-lock';
import type { ReadStoreConnectionOptions } from './wal-checkpointer';

export { PROJECTION_VERSION } from '@app/runtime/projector';

type Tables = { trainees: TraineeTables; providers: ProviderTables };

/** Options of {@link SqliteReadModel}: its connection's, and its stream phases' (`SqliteStreamBuild.run`). */
export interface SqliteReadModelOptions extends ReadStoreConnectionOptions, StreamBuildOptions {
  /** Overrides this code's projection versions (tests). */
  codeVersions?: Partial<Record<ProjectionName, number>>;
}

/**
 * The embedded read models on SQLite (`<DATA_DIR>/read-models.sqlite`). Two projections, each
 * with a version and its own store (tables named with it) and checkpoint, written in the same
 * transaction as its documents:
 * - `trainees`: one row per trainee (the JSON document plus the columns the list filters and the
 *   duplicate check need), see {@link TraineeTables};
 * - `providers`: providers and tokens, see {@link ProviderTables}.
 * What an event does to a document is the projections' (`libs/trainees/read/trainee-projection.ts`,
 * `libs/providers/read/provider-projection.ts`); the tables store and query what they return.
 * `projection_registry` names the store each projection serves from; a rebuild writes a new store
 * beside it while the old one serves, then swaps the registry row atomically (blue/green). Every
 * read follows the registry, so readers in other processes switch with the swap.
 */
export class SqliteReadModel implements ReadModelStore, RebuildableStore {
  private readonly db: Database.Database;
  /** The latest rebuild run of each projection (docs/observability.md "Rebuilds"). */
  readonly rebuildRuns: SqliteRebuildRuns;
  private readonly stmts: ReturnType<typeof registryStatements>;
  private readonly codeVersions: Record<ProjectionName, number>;
  private readonly tablesByStore = { trainees: new Map<string, TraineeTables>(), providers: new Map<string, ProviderTables>() };
  private active!: Tables;
  private registry: RegistryRow[] = [];
  /** The registry as {@link registryStatements}' `registryKey` last read it. */
  private registryKey = '';
  private seenDataVersion = -1;
  private readonly streamBuildOptions: StreamBuildOptions;
  /** The run of {@link dropPendingStores} under way, if any. */
  private dropping: Promise<void> | null = null;

  /** Opens (creating if needed) the read store in `filename`; its damage, met by any call, is `ReadModelsDamaged` (`guardDamage`). */
  constructor(
    private readonly filename: string,
    options: SqliteReadModelOptions = {},
  ) {
    this.codeVersions = { ...PROJECTION_VERSIONS, ...options.codeVersions };
    const { workerFromPosition, keyEncryptionKey = null, keyringFile = null } = options;
    this.streamBuildOptions = { workerFromPosition, keyEncryptionKey, keyringFile };
    this.db = openReadStoreFile(filename, options);
    this.stmts = registryStatements(this.db);
    this.rebuildRuns = new SqliteRebuildRuns(this.db);
    registerProjections(this.db, this.stmts, this.codeVersions);
    this.refresh('force');
  }

  /** Opens `<dataDir>/read-models.sqlite`, creating the directory when needed. */
  static open(dataDir: string, options: SqliteReadModelOptions = {}): SqliteReadModel {
    makePrivateDirectory(dataDir);
    return new SqliteReadModel(join(dataDir, READ_STORE_FILE), options);
  }

  /**
   * Follows the registry when another connection (or this one) has committed since the last look
   * (`PRAGMA data_version`, about 2 µs): every read and write looks, so a swap made in another
   * process is followed by every read that starts after it (docs/DESIGN.md "Read models" and
   * "Projection versions and blue/green rebuilds"), and a read that meets a dropped store looks
   * again (see {@link read}); `force` reads the registry even if nothing committed.
   */
  private refresh(mode: 'look' | 'force' = 'look'): Tables {
    const version = this.stmts.dataVersion.get() as number;
    if (mode !== 'force' && version === this.seenDataVersion && this.active) return this.active;
    this.seenDataVersion = version;
    // Most commits (a projection thread's batches) leave the registry as it was: keep the tables then.
    const key = this.stmts.registryKey.get() ?? '';
    if (mode !== 'force' && key === this.registryKey && this.active) return this.active;
    this.registryKey = key;
    this.registry = this.stmts.registry.all();
    const store = (name: ProjectionName) => this.registry.find((r) => r.name === name)!.store;
    this.active = { trainees: this.traineeTables(store('trainees')), providers: this.providerTables(store('providers')) };
    return this.active;
  }

  private traineeTables(store: string): TraineeTables {
    let t = this.tablesByStore.trainees.get(store);
    if (!t) this.tablesByStore.trainees.set(store, (t = new TraineeTables(this.db, store)));
    return t;
  }

  private providerTables(store: string): ProviderTables {
    let t = this.tablesByStore.providers.get(store);
    if (!t) this.tablesByStore.providers.set(store, (t = new ProviderTables(this.db, store)));
    return t;
  }

  /**
   * Runs a read on the active stores; if a swap dropped the old store between the registry look and
   * the read, looks again and retries once, so a swap never fails a read.
   */
  private read<T>(fn: (tables: Tables) => T): T {
    return guardDamage(this.filename, () => {
      try {
        return fn(this.refresh());
      } catch (err) {
        // Not `instanceof Error`: the driver's errors may come from another realm (a test sandbox).
        if (!/no such table/.test(String((err as { message?: unknown } | null)?.message))) throw err;
        return fn(this.refresh('force'));
      }
    });
  }

  /** The trainee by id, matched case-insensitively (docs/reference/API-FACTS.md §1.10), or null. */
  async getTrainee(traineeId: string): Promise<Trainee | null> {
    return this.read((t) => t.trainees.trainee(traineeId));
  }

  /**
   * The trainee (id matched case-insensitively) and the stream revision of the last event applied
   * to it, from the served trainee store; null when there is none, or when the served store was
   * built by another projection version than this code's (the comparison `rebuild_needed` of
   * {@link projectionInfo} reports). See `TraineeReadModel.getTraineeSnapshot`.
   */
  async getTraineeSnapshot(traineeId: string): Promise<TraineeSnapshot | null> {
    return this.read((t) => (this.servesCodeVersion('trainees') ? t.trainees.snapshot(traineeId) : null));
  }

  /** One page of a provider's trainees of one academic cycle (docs/reference/API-FACTS.md §14). */
  async listTrainees(q: TraineeListQuery): Promise<TraineeListPage> {
    return this.read((t) => t.trainees.page(q));
  }

  /** See `TraineeReadModel.getTraineeAnswer`; rendered per read from a store of another projection version. */
  async getTraineeAnswer(traineeId: string, version: ApiVersion): Promise<OwnedAnswer | null> {
    return this.read((t) => t.trainees.answer(traineeId, version, this.servesCodeVersion('trainees')));
  }

  /** The list page as answer bytes of `version` (stored bytes as for {@link getTraineeAnswer}). */
  async listTraineeAnswers(q: TraineeListQuery, version: ApiVersion): Promise<TraineeAnswerPage> {
    return this.read((t) => t.trainees.answerPage(q, version, this.servesCodeVersion('trainees')));
  }

  /** See `TraineeReadModel.listChanges`: a batch's changes commit with its checkpoint. */
  async listChanges(ukprn: string, afterPosition: number, limit: number): Promise<StoredChange[] | null> {
    return this.read((t) => {
      const served = this.registry.find((r) => r.name === 'trainees')?.version ?? 0;
      return served < CHANGE_FEED_SINCE_VERSION ? null : t.trainees.changes(ukprn, afterPosition, limit);
    });
  }

  /** See `TraineeReadModel.changesBetween`. */
  async changesBetween(afterPosition: number, upToPosition: number, limit: number): Promise<StoredChange[] | null> {
    return this.read((t) => {
      const served = this.registry.find((r) => r.name === 'trainees')?.version ?? 0;
      return served < CHANGE_FEED_SINCE_VERSION ? null : t.trainees.changesBetween(afterPosition, upToPosition, limit);
    });
  }

  /** The provider's trainees with this date of birth, route and last name (case-insensitive), oldest-created first. */
  async findDuplicateCandidates(ukprn: string, dateOfBirth: string, trainingRoute: string, lastName: string): Promise<Trainee[]> {
    return this.read((t) => t.trainees.duplicateCandidates(ukprn, dateOfBirth, trainingRoute, lastName));
  }

  /** The token whose SHA-256 hash (lower-case hex) is `tokenHash`, or null. */
  async findTokenByHash(tokenHash: string): Promise<TokenRecord | null> {
    return this.read((t) => t.providers.tokenByHash.get(tokenHash)) ?? null;
  }

  /** The token with this id, or null. */
  async getToken(tokenId: string): Promise<TokenRecord | null> {
    return this.read((t) => t.providers.tokenById.get(tokenId)) ?? null;
  }

  /** The provider's tokens, ordered by `issued_at` then token id. */
  async listTokens(ukprn: string): Promise<TokenRecord[]> {
    return this.read((t) => t.providers.tokensOf.all(ukprn));
  }

  /** The provider with this UKPRN, or null. */
  async getProvider(ukprn: string): Promise<ProviderRecord | null> {
    return this.read((t) => t.providers.provider.get(ukprn)) ?? null;
  }

  /** Every provider, ordered by UKPRN. */
  async listProviders(): Promise<ProviderRecord[]> {
    return this.read((t) => t.providers.providers.all());
  }

  /** The stored position of checkpoint `name` (a consumer's or a store's `<projection>_<store>`), `LOG_START` when none. */
  async readCheckpoint(name: string): Promise<LogPosition> {
    return logPosition(this.stmts.getCheckpoint.get(name)?.position ?? 0);
  }

  /** Stores `position` for consumer `name` unless a later one is stored already. */
  async writeCheckpoint(name: string, position: LogPosition): Promise<void> {
    this.stmts.setCheckpoint.run(name, position, 0, now());
  }

  /** The lower of the two active projections' checkpoints: every event up to it is applied to both. */
  async checkpoint(): Promise<LogPosition> {
    return this.read((t) =>
      logPosition(
        Math.min(
          this.stmts.getCheckpoint.get(`trainees_${t.trainees.store}`)?.position ?? 0,
          this.stmts.getCheckpoint.get(`providers_${t.providers.store}`)?.position ?? 0,
        ),
      ),
    );
  }

  /**
   * Applies a batch (in position order) to the store each projection serves from and advances
   * each store's checkpoint, in one transaction holding the write lock (`BEGIN IMMEDIATE`, taken
   * as soon as a rebuild's or a drop's short transaction frees it: `writeAsSoonAsFree`). An empty
   * batch writes nothing.
   */
  async applyBatch(events: RecordedEvent[]): Promise<void> {
    if (events.length === 0) return;
    guardDamage(this.filename, () =>
      writeAsSoonAsFree(this.db, () => {
        const t = this.refresh();
        t.trainees.apply(events);
        t.providers.apply(events);
        this.advance(t, events[events.length - 1].position);
      }),
    );
  }

  /** See `TraineeReadModel.listEndings`: the served store. */
  async listEndings(afterId: string | null, limit: number): Promise<TraineeEnding[]> {
    return this.read((t) => endingsIn(this.db, t.trainees, afterId, limit));
  }

  /** See `TraineeReadModel.providerTraineeIds`: the served store, on the list index. */
  async providerTraineeIds(ukprn: string): Promise<string[]> {
    return this.read((t) => t.trainees.idsOf(ukprn));
  }

  /** See `ReadModelStore.eraseTrainee` and ./erasure.ts (`ReadStoreNotForgotten` when readers hold the WAL). */
  eraseTrainee(traineeId: string, ukprn: string, stream: readonly RecordedEvent[]): Promise<void> {
    return eraseFromReadStore(this.db, (store) => this.traineeTables(store), { traineeId, ukprn, stream });
  }

  /** Moves the checkpoints of both stores in `t` to `position` (never back). */
  private advance(t: Tables, position: number): void {
    for (const [name, { store }] of Object.entries(t))
      this.stmts.setCheckpoint.run(`${name}_${store}`, position, Number(/^v(\d+)/.exec(store)?.[1] ?? 0), now());
  }

  /**
   * The stream build of the served trainee store while both served stores have applied nothing
   * (see `ProjectionStore.initialStreamBuild`); its `finish` moves both checkpoints, in one transaction.
   */
  async initialStreamBuild(): Promise<StreamBuild | null> {
    if ((await this.checkpoint()) !== 0) return null;
    const t = this.refresh();
    return new SqliteStreamBuild(this.db, t.trainees, `trainees_${t.trainees.store}`, this.streamBuildOptions, (position) =>
      this.advance(t, position),
    );
  }

  /** True when the registry, as last read, names a store of projection `name` built by this code's version of it. */
  private servesCodeVersion(name: ProjectionName): boolean {
    return this.registry.find((r) => r.name === name)?.version === this.codeVersions[name];
  }

  /** Each projection as an operator sees it (`admin projections status`, the metrics). */
  async projectionInfo(): Promise<ProjectionInfo[]> {
    const t = this.refresh('force');
    return projectionInfoOf(this.registry, this.codeVersions, this.stmts, (name) => (name === 'trainees' ? t.trainees : t.providers));
  }

  /**
   * Starts a rebuild of `name` into a new store (`v<code version>`, else `v<code version>_g<n>`),
   * or resumes the one in progress; see {@link RebuildTarget} and docs/DESIGN.md "Projection
   * versions and blue/green rebuilds".
   */
  async beginRebuild(name: ProjectionName): Promise<RebuildTarget> {
    const row = this.refresh('force') && this.registry.find((r) => r.name === name)!;
    const code = this.codeVersions[name];
    let store = row.rebuilding;
    if (!store) {
      store = `v${code}`;
      for (let g = 2; store === row.store || this.tableExists(name, store); g++) store = `v${code}_g${g}`;
      // A new store starts from position 0, whatever a dropped store of the same name left behind.
      this.db.prepare(`DELETE FROM projection_checkpoints WHERE name = ?`).run(`${name}_${store}`);
      this.stmts.setRebuilding.run(store, now(), name);
    }
    const tables = name === 'trainees' ? this.traineeTables(store) : this.providerTables(store);
    const target = new SqliteRebuildTarget({
      db: this.db,
      streamBuild: this.streamBuildOptions,
      name,
      store,
      version: code,
      tables,
      checkpoint: (checkpoint) => this.stmts.getCheckpoint.get(checkpoint)?.position ?? 0,
      setCheckpoint: (checkpoint, position, version) => this.stmts.setCheckpoint.run(checkpoint, position, version, now()),
      pointRegistry: () => {
        const previous = this.stmts.registry.all().find((r) => r.name === name)!.store;
        this.stmts.swap.run(code, store, now(), name);
        // The new store applied every event again, those an older version skipped included.
        this.stmts.forgetSkipped?.run(name);
        return previous;
      },
      afterSwap: async (previous, keep) => {
        this.refresh('force');
        if (keep) return { dropped: false };
        this.tablesByStore[name].delete(previous);
        this.stmts.requestDrop.run(name, previous, now());
        const started = performance.now();
        await this.dropPendingStores();
        return { dropped: true, dropSeconds: (performance.now() - started) / 1000 };
      },
    });
    if (!row.rebuilding) target.reset();
    return target;
  }

  /**
   * Drops the stores that swaps left to drop (`projection_drops`), each in slices that hold the
   * write lock about 15 ms at a time (`dropInSlices`), with its checkpoint; resolves
   * once none is left. What a swap's rebuild awaits, and what the projector starts in the background
   * (`ProjectionStore.dropPendingStores`), so a drop a crash cut short is finished. Calls made while
   * one runs share it.
   */
  dropPendingStores(options?: SliceOptions): Promise<void> {
    this.dropping ??= dropRecordedStores(this.db, this.stmts, options).finally(() => (this.dropping = null));
    return this.dropping;
  }

  private tableExists(name: ProjectionName, store: string): boolean {
    const table = name === 'trainees' ? `trainees_${store}` : `providers_${store}`;
    return this.db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table) !== undefined;
  }

  /** Closes the database. */
  close(): void {
    this.db.close();
  }
}

function now(): string {
  return new Date().toISOString();
}
