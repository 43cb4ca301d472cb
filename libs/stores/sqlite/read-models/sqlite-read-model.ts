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

/** Its connection's, and its stream phases' (`SqliteStreamBuild.run`). */
export interface SqliteReadModelOptions extends ReadStoreConnectionOptions, StreamBuildOptions {
  /** Overrides this code's projection versions (tests). */
  codeVersions?: Partial<Record<ProjectionName, number>>;
}

/**
 * The embedded read models (`<DATA_DIR>/read-models.sqlite`), every read store port on one connection that follows the registry
 * (`ReadStoreView`): `trainees` (`TraineeTables`) and `providers` (`ProviderTables`), each with a version, its own store and a
 * checkpoint written in the same transaction as its documents; a rebuild writes a new store beside the served one, then swaps the
 * registry row (docs/DESIGN.md "Projection versions and blue/green rebuilds"). Each port is a class this one hands its calls to.
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
  getTrainee: SqliteTraineeReads['getTrainee'] = (id) => this.trainees.getTrainee(id);
  getTraineeSnapshot: SqliteTraineeReads['getTraineeSnapshot'] = (id) => this.trainees.getTraineeSnapshot(id);
  listTrainees: SqliteTraineeReads['listTrainees'] = (q) => this.trainees.listTrainees(q);
  getTraineeAnswer: SqliteTraineeReads['getTraineeAnswer'] = (id, version) => this.trainees.getTraineeAnswer(id, version);
  listTraineeAnswers: SqliteTraineeReads['listTraineeAnswers'] = (q, version) => this.trainees.listTraineeAnswers(q, version);
  findDuplicateCandidates: SqliteTraineeReads['findDuplicateCandidates'] = (ukprn, dateOfBirth, route, lastName) =>
    this.trainees.findDuplicateCandidates(ukprn, dateOfBirth, route, lastName);
  listEndings: SqliteTraineeReads['listEndings'] = (afterId, limit) => this.trainees.listEndings(afterId, limit);
  providerTraineeIds: SqliteTraineeReads['providerTraineeIds'] = (ukprn) => this.trainees.providerTraineeIds(ukprn);

  // The change feed (`ChangeFeed`): see SqliteChangeFeed.
  listChanges: SqliteChangeFeed['listChanges'] = (ukprn, after, limit) => this.changes.listChanges(ukprn, after, limit);
  changesBetween: SqliteChangeFeed['changesBetween'] = (after, upTo, limit) => this.changes.changesBetween(after, upTo, limit);

  // The providers and tokens (`ProviderReadModel`): see SqliteProviderReads.
  findTokenByHash: SqliteProviderReads['findTokenByHash'] = (hash) => this.providers.findTokenByHash(hash);
  getToken: SqliteProviderReads['getToken'] = (id) => this.providers.getToken(id);
  listTokens: SqliteProviderReads['listTokens'] = (ukprn) => this.providers.listTokens(ukprn);
  getProvider: SqliteProviderReads['getProvider'] = (ukprn) => this.providers.getProvider(ukprn);
  listProviders: SqliteProviderReads['listProviders'] = () => this.providers.listProviders();

  // The projector's writes and the checkpoints (`ProjectionStore`, `CheckpointStore`): see SqliteProjectionWrites.
  readCheckpoint = (name: string): Promise<LogPosition> => this.writes.readCheckpoint(name);
  writeCheckpoint = (name: string, position: LogPosition): Promise<void> => this.writes.writeCheckpoint(name, position);
  checkpoint = (): Promise<LogPosition> => this.writes.checkpoint();
  applyBatch = (events: RecordedEvent[]): Promise<void> => this.writes.applyBatch(events);
  initialStreamBuild = (): Promise<StreamBuild | null> => this.writes.initialStreamBuild();
  eraseTrainee = (traineeId: string, ukprn: string, stream: readonly RecordedEvent[]): Promise<void> =>
    this.writes.eraseTrainee(traineeId, ukprn, stream);

  // The rebuilds (`RebuildableStore`): see SqliteRebuilds.
  projectionInfo = (): Promise<ProjectionInfo[]> => this.rebuilds.projectionInfo();
  beginRebuild = (name: ProjectionName): Promise<RebuildTarget> => this.rebuilds.beginRebuild(name);
  dropPendingStores = (options?: SliceOptions): Promise<void> => this.rebuilds.dropPendingStores(options);

  close(): void {
    this.view.close();
  }
}
