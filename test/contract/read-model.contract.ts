/**
 * The contract every read-model adapter must pass (docs/DESIGN.md "Read models"; the ports in
 * libs/trainees/read/trainee-read.port.ts, libs/providers/read/provider-read.port.ts,
 * libs/changes/change-feed.port.ts, libs/runtime/projector/projection-store.port.ts and
 * libs/runtime/rebuild/rebuild.ts). The SQLite adapter is the reference behaviour.
 *
 * Written against the ports only, so it also runs on a shared, non-empty server database: every
 * test uses trainee ids, token ids and UKPRNs with a random suffix, and event positions start
 * after the store's current checkpoint, never at an absolute number.
 *
 * Events are built as an event store records them (see {@link EventLog}): domain events wrapped
 * by the codec's `toEventData`, revisions counted per stream from 0, positions strictly
 * increasing with gaps (EventStoreDB's commit positions have gaps). The trainee events are
 * literal, the example trainee of libs/trainees/decider/testing/trainee-events.ts under each
 * test's ids (test/contract/read-model-fixtures.ts).
 *
 * The suites, one file each: trainee documents (read-model-documents.contract.ts), providers and
 * tokens (read-model-providers.contract.ts), lists and answers (read-model-lists.contract.ts), the
 * read store's erasure, endings and named checkpoints (read-model-erasure.contract.ts), and the
 * blue/green rebuild (read-model-rebuild.contract.ts, read-model-rebuild-swap.contract.ts).
 * The rebuild tests run when the factory's read model is also a {@link RebuildableStore}; they
 * drive it only through that port and the generic `rebuildProjection`, reading the log from an
 * in-memory store that holds every event the test applied. A rebuild re-reads the whole log, so
 * these tests need a store that only the test feeds (both runners give each test a fresh one).
 */
import type { ChangeFeed } from '@app/changes';
import type { ProviderReadModel } from '@app/providers/read';
import type { ProjectionName, ProjectionStore, ReadModelStore } from '@app/runtime/projector';
import type { RebuildableStore } from '@app/runtime/rebuild';
import type { TraineeReadModel } from '@app/trainees/read';
import { describeTraineeDocumentsContract } from './read-model-documents.contract';
import { describeReadStoreContract } from './read-model-erasure.contract';
import { describeTraineeListsContract } from './read-model-lists.contract';
import { describeProvidersContract } from './read-model-providers.contract';
import { describeRebuildSwapContract } from './read-model-rebuild-swap.contract';
import { describeRebuildContract } from './read-model-rebuild.contract';

export { decidedHistory, EventLog } from './read-model-fixtures';

/** The read model ports the contract drives: the read ports, the projections' and the read store's own. */
export type ContractReadModel = TraineeReadModel &
  ChangeFeed &
  ProviderReadModel &
  ProjectionStore &
  Pick<ReadModelStore, 'eraseTrainee' | 'readCheckpoint' | 'writeCheckpoint'>;

/**
 * What the contract needs from an adapter: the read model (all three ports, and
 * {@link RebuildableStore} for the rebuild tests) and its cleanup; optionally a second instance
 * on the same data and a look at which stores exist, for the rebuild tests that need them.
 */
export interface ReadModelContractContext {
  readModel: ContractReadModel | (ContractReadModel & RebuildableStore);
  /** Closes the read model (and every instance `reopen` opened) and removes its data. */
  cleanup(): Promise<void>;
  /**
   * Opens another instance on the same data, as another process would, building the given
   * projection versions (`codeVersions`, default the code's). Without it the rebuild tests that
   * need a second instance or a version change are not run.
   */
  reopen?(options?: { codeVersions?: Partial<Record<ProjectionName, number>> }): Promise<ContractReadModel>;
  /**
   * Whether store `store` of projection `name` still has any of its tables or collections.
   * Without it the rebuild tests check the dropped/kept outcome only as the swap reports it.
   */
  storeExists?(name: ProjectionName, store: string): Promise<boolean>;
}

/**
 * Registers the read-model contract suites for one adapter, in the order of their files above.
 * `factory` is called before each test and the returned `cleanup` after it. Rule sources:
 * docs/DESIGN.md "Read models" and properties 1, 5 and 6; docs/reference/API-FACTS.md §1.10
 * (case-insensitive ids), §14 (list filters, paging, order), §14.4 (status filters); the ports'
 * documentation.
 */
export function describeReadModelContract(name: string, factory: () => Promise<ReadModelContractContext>): void {
  describeTraineeDocumentsContract(name, factory);
  describeProvidersContract(name, factory);
  describeTraineeListsContract(name, factory);
  describeReadStoreContract(name, factory);
  describeRebuildContract(name, factory);
  describeRebuildSwapContract(name, factory);
}
