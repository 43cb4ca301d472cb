import { join } from 'node:path';
import { makePrivateDirectory } from '@app/sqlite';
import type { LogPosition, RecordedEvent } from '@app/event-sourcing';
import type { ProjectionInfo, ProjectionName, ReadModelStore, StreamBuild } from '@app/runtime/projector';
import type { RebuildableStore, RebuildTarget } from '@app/runtime/rebuild';
import { READ_STORE_FILE } from './read-store-file';
import { ReadStoreView } from './read-store-view';
import { SqliteChangeFeed } from './sqlite-change-feed';
import { SqliteProjectionWrites } from './sqlite-projection-writes';
import { SqliteProviderReads } from './sqlite-provider-reads';
import { SqliteRebuilds } from './sqlite-rebuilds';
import type { SqliteRebuildRuns } from './sqlite-rebuild-runs';
import type { StreamBuildOptions } from './sqlite-stream-build';
import { SqliteTraineeReads } from './sqlite-trainee-reads';
import type { SliceOptions } from './drop-in-slices';
import type { ReadStoreConnectionOptions } from './wal-checkpointer';

export { PROJECTION_VERSION } from '@app/runtime/projector';

/** Options of {@link SqliteReadModel}: its connection's, and its stream phases' (`SqliteStreamBuild.run`). */
export interface SqliteReadModelOptions extends ReadStoreConnectionOptions, StreamBuildOptions {
  /** Overrides this code's projection versions (tests). */
  codeVersions?: Partial<Record<ProjectionName, number>>;
}

/**
 * The embedded read models on SQLite (`<DATA_DIR>/read-models.sqlite`), every port of a read store
 * on one connection that follows the registry (`ReadStoreView`). Two projections, each with a
 * version and its own store (tables named with it) and checkpoint, written in the same transaction
 * as its documents: `trainees`, one row per trainee (the JSON document plus the columns the list
 * filters and the duplicate check need; `TraineeTables`), and `providers`, providers and tokens
 * (`ProviderTables`). What an event does to a document is the projections'
 * (`libs/trainees/read/trainee-projection.ts`, `libs/providers/read/provider-projection.ts`); the
 * tables store and query what they return. `projection_registry` names the store each projection
 * serves from; a rebuild writes a new store beside it while the old one serves, then swaps the
 * registry row atomically (blue/green). Each port is a class of its own, which this one hands its
 * calls to: the trainees' reads ({@link SqliteTraineeReads}), the change feed ({@link SqliteChangeFeed}),
 * the providers' ({@link SqliteProviderReads}), the projector's writes and the checkpoints
 * ({@link SqliteProjectionWrites}) and the rebuilds ({@link SqliteRebuilds}).
 */
export class SqliteReadModel implements ReadModelStore, RebuildableStore {
  /** The latest rebuild run of each projection (docs/observability.md "Rebuilds"). */
  readonly rebuildRuns: SqliteRebuildRuns;
  readonly trainees: SqliteTraineeReads;
  readonly changes: SqliteChangeFeed;
  readonly providers: SqliteProviderReads;
  readonly writes: SqliteProjectionWrites;
  readonly rebuilds: SqliteRebuilds;
  private readonly view: ReadStoreView;

  /** Opens (creating if needed) the read store in `filename`; its damage, met by any call, is `ReadModelsDamaged` (`guardDamage`). */
  constructor(filename: string, options: SqliteReadModelOptions = {}) {
    const { workerFromPosition, keyEncryptionKeys = null } = options;
    const streamBuild: StreamBuildOptions = { workerFromPosition, keyEncryptionKeys };
    this.view = new ReadStoreView(filename, options);
    this.rebuildRuns = this.view.rebuildRuns;
    this.trainees = new SqliteTraineeReads(this.view);
    this.changes = new SqliteChangeFeed(this.view);
    this.providers = new SqliteProviderReads(this.view);
    this.writes = new SqliteProjectionWrites(this.view, streamBuild);
    this.rebuilds = new SqliteRebuilds(this.view, streamBuild);
  }

  /** Opens `<dataDir>/read-models.sqlite`, creating the directory when needed. */
  static open(dataDir: string, options: SqliteReadModelOptions = {}): SqliteReadModel {
    makePrivateDirectory(dataDir);
    return new SqliteReadModel(join(dataDir, READ_STORE_FILE), options);
  }

  // The trainees' reads (`TraineeReadModel`): see SqliteTraineeReads.
  /** See {@link SqliteTraineeReads.getTrainee}. */
  getTrainee: SqliteTraineeReads['getTrainee'] = (id) => this.trainees.getTrainee(id);
  /** See {@link SqliteTraineeReads.getTraineeSnapshot}. */
  getTraineeSnapshot: SqliteTraineeReads['getTraineeSnapshot'] = (id) => this.trainees.getTraineeSnapshot(id);
  /** See {@link SqliteTraineeReads.listTrainees}. */
  listTrainees: SqliteTraineeReads['listTrainees'] = (q) => this.trainees.listTrainees(q);
  /** See {@link SqliteTraineeReads.getTraineeAnswer}. */
  getTraineeAnswer: SqliteTraineeReads['getTraineeAnswer'] = (id, version) => this.trainees.getTraineeAnswer(id, version);
  /** See {@link SqliteTraineeReads.listTraineeAnswers}. */
  listTraineeAnswers: SqliteTraineeReads['listTraineeAnswers'] = (q, version) => this.trainees.listTraineeAnswers(q, version);
  /** See {@link SqliteTraineeReads.findDuplicateCandidates}. */
  findDuplicateCandidates: SqliteTraineeReads['findDuplicateCandidates'] = (ukprn, dateOfBirth, route, lastName) =>
    this.trainees.findDuplicateCandidates(ukprn, dateOfBirth, route, lastName);
  /** See {@link SqliteTraineeReads.listEndings}. */
  listEndings: SqliteTraineeReads['listEndings'] = (afterId, limit) => this.trainees.listEndings(afterId, limit);
  /** See {@link SqliteTraineeReads.providerTraineeIds}. */
  providerTraineeIds: SqliteTraineeReads['providerTraineeIds'] = (ukprn) => this.trainees.providerTraineeIds(ukprn);

  // The change feed (`ChangeFeed`): see SqliteChangeFeed.
  /** See {@link SqliteChangeFeed.listChanges}. */
  listChanges: SqliteChangeFeed['listChanges'] = (ukprn, after, limit) => this.changes.listChanges(ukprn, after, limit);
  /** See {@link SqliteChangeFeed.changesBetween}. */
  changesBetween: SqliteChangeFeed['changesBetween'] = (after, upTo, limit) => this.changes.changesBetween(after, upTo, limit);

  // The providers and tokens (`ProviderReadModel`): see SqliteProviderReads.
  /** See {@link SqliteProviderReads.findTokenByHash}. */
  findTokenByHash: SqliteProviderReads['findTokenByHash'] = (hash) => this.providers.findTokenByHash(hash);
  /** See {@link SqliteProviderReads.getToken}. */
  getToken: SqliteProviderReads['getToken'] = (id) => this.providers.getToken(id);
  /** See {@link SqliteProviderReads.listTokens}. */
  listTokens: SqliteProviderReads['listTokens'] = (ukprn) => this.providers.listTokens(ukprn);
  /** See {@link SqliteProviderReads.getProvider}. */
  getProvider: SqliteProviderReads['getProvider'] = (ukprn) => this.providers.getProvider(ukprn);
  /** See {@link SqliteProviderReads.listProviders}. */
  listProviders: SqliteProviderReads['listProviders'] = () => this.providers.listProviders();

  // The projector's writes and the checkpoints (`ProjectionStore`, `CheckpointStore`): see SqliteProjectionWrites.
  /** See {@link SqliteProjectionWrites.readCheckpoint}. */
  readCheckpoint = (name: string): Promise<LogPosition> => this.writes.readCheckpoint(name);
  /** See {@link SqliteProjectionWrites.writeCheckpoint}. */
  writeCheckpoint = (name: string, position: LogPosition): Promise<void> => this.writes.writeCheckpoint(name, position);
  /** See {@link SqliteProjectionWrites.checkpoint}. */
  checkpoint = (): Promise<LogPosition> => this.writes.checkpoint();
  /** See {@link SqliteProjectionWrites.applyBatch}. */
  applyBatch = (events: RecordedEvent[]): Promise<void> => this.writes.applyBatch(events);
  /** See {@link SqliteProjectionWrites.initialStreamBuild}. */
  initialStreamBuild = (): Promise<StreamBuild | null> => this.writes.initialStreamBuild();
  /** See {@link SqliteProjectionWrites.eraseTrainee}. */
  eraseTrainee = (traineeId: string, ukprn: string, stream: readonly RecordedEvent[]): Promise<void> =>
    this.writes.eraseTrainee(traineeId, ukprn, stream);

  // The rebuilds (`RebuildableStore`): see SqliteRebuilds.
  /** See {@link SqliteRebuilds.projectionInfo}. */
  projectionInfo = (): Promise<ProjectionInfo[]> => this.rebuilds.projectionInfo();
  /** See {@link SqliteRebuilds.beginRebuild}. */
  beginRebuild = (name: ProjectionName): Promise<RebuildTarget> => this.rebuilds.beginRebuild(name);
  /** See {@link SqliteRebuilds.dropPendingStores}. */
  dropPendingStores = (options?: SliceOptions): Promise<void> => this.rebuilds.dropPendingStores(options);

  /** Closes the database. */
  close(): void {
    this.view.close();
  }
}
