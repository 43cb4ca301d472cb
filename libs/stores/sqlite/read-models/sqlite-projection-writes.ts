import { logPosition, type LogPosition, type RecordedEvent } from '@app/event-sourcing';
import type { ProjectionStore, ReadModelStore, StreamBuild } from '@app/runtime/projector';
import { eraseFromReadStore } from './erasure';
import { guardDamage } from './read-store-damage';
import { now, type ReadStoreView } from './read-store-view';
import { writeAsSoonAsFree } from './shared-write-lock';
import { SqliteStreamBuild, type StreamBuildOptions } from './sqlite-stream-build';

/**
 * The projector's side of the embedded read store's `view` (`ProjectionStore`): batches applied to
 * the store each projection serves from, each with its checkpoint in the same transaction; the
 * first build by stream; the named checkpoints of the log's other consumers (`CheckpointStore`);
 * an erased trainee forgotten in every trainee store.
 */
export class SqliteProjectionWrites
  implements ProjectionStore, Pick<ReadModelStore, 'readCheckpoint' | 'writeCheckpoint' | 'eraseTrainee'>
{
  constructor(
    private readonly view: ReadStoreView,
    private readonly streamBuildOptions: StreamBuildOptions,
  ) {}

  /** The stored position of checkpoint `name` (a consumer's or a store's `<projection>_<store>`), `LOG_START` when none. */
  async readCheckpoint(name: string): Promise<LogPosition> {
    return logPosition(this.view.checkpointAt(name));
  }

  /** Stores `position` for consumer `name` unless a later one is stored already. */
  async writeCheckpoint(name: string, position: LogPosition): Promise<void> {
    this.view.stmts.setCheckpoint.run(name, position, 0, now());
  }

  /** The lower of the two served projections' checkpoints: every event up to it is applied to both. */
  async checkpoint(): Promise<LogPosition> {
    return this.view.read((t) => this.view.servedCheckpoint(t));
  }

  /**
   * Applies a batch (in position order) to the store each projection serves from and advances
   * each store's checkpoint, in one transaction holding the write lock (`BEGIN IMMEDIATE`, taken
   * as soon as a rebuild's or a drop's short transaction frees it: `writeAsSoonAsFree`). An empty
   * batch writes nothing.
   */
  async applyBatch(events: RecordedEvent[]): Promise<void> {
    if (events.length === 0) return;
    guardDamage(this.view.filename, () =>
      writeAsSoonAsFree(this.view.db, () => {
        const t = this.view.refresh();
        t.trainees.apply(events);
        t.providers.apply(events);
        this.view.advance(t, events[events.length - 1].position);
      }),
    );
  }

  /**
   * The stream build of the served trainee store while both served stores have applied nothing
   * (see `ProjectionStore.initialStreamBuild`); its `finish` moves both checkpoints, in one transaction.
   */
  async initialStreamBuild(): Promise<StreamBuild | null> {
    if ((await this.checkpoint()) !== 0) return null;
    const t = this.view.refresh();
    return new SqliteStreamBuild(this.view.db, t.trainees, `trainees_${t.trainees.store}`, this.streamBuildOptions, (position) =>
      this.view.advance(t, position),
    );
  }

  /** See `ReadModelStore.eraseTrainee` and ./erasure.ts (`ReadStoreNotForgotten` when readers hold the WAL). */
  eraseTrainee(traineeId: string, ukprn: string, stream: readonly RecordedEvent[]): Promise<void> {
    return eraseFromReadStore(this.view.db, (store) => this.view.traineeTables(store), { traineeId, ukprn, stream });
  }
}
