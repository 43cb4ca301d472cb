import { logPosition, type LogPosition, type RecordedEvent } from '@app/event-sourcing';
import type { ProjectionStore, ReadModelStore, StreamBuild } from '@app/runtime/projector';
import { eraseFromReadStore } from './erasure';
import { guardDamage } from './read-store-damage';
import { now, type ReadStoreView } from './read-store-view';
import { writeAsSoonAsFree } from './shared-write-lock';
import { SqliteStreamBuild, type StreamBuildOptions } from './sqlite-stream-build';

/** The projector's side of the read store: batches with their checkpoints, the first build by stream, consumers' checkpoints, erasure. */
export class SqliteProjectionWrites
  implements ProjectionStore, Pick<ReadModelStore, 'readCheckpoint' | 'writeCheckpoint' | 'eraseTrainee'>
{
  constructor(
    private readonly view: ReadStoreView,
    private readonly streamBuildOptions: StreamBuildOptions,
  ) {}

  /** A consumer's, or a store's `<projection>_<store>`; `LOG_START` when none. */
  async readCheckpoint(name: string): Promise<LogPosition> {
    return logPosition(this.view.checkpointAt(name));
  }

  /** Unless a later one is stored already. */
  async writeCheckpoint(name: string, position: LogPosition): Promise<void> {
    this.view.stmts.setCheckpoint.run(name, position, 0, now());
  }

  /** Every event up to it is applied to both served stores. */
  async checkpoint(): Promise<LogPosition> {
    return this.view.read((t) => this.view.servedCheckpoint(t));
  }

  /** Each store's checkpoint in the same transaction, the lock taken as soon as a long job's transaction frees it (`writeAsSoonAsFree`). */
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

  /** `ProjectionStore.initialStreamBuild`, while both served stores have applied nothing; `finish` moves both checkpoints together. */
  async initialStreamBuild(): Promise<StreamBuild | null> {
    if ((await this.checkpoint()) !== 0) return null;
    const t = this.view.refresh();
    return new SqliteStreamBuild(this.view.db, t.trainees, `trainees_${t.trainees.store}`, this.streamBuildOptions, (position) =>
      this.view.advance(t, position),
    );
  }

  /** ./erasure.ts; `ReadStoreNotForgotten` when readers hold the WAL. */
  eraseTrainee(traineeId: string, ukprn: string, stream: readonly RecordedEvent[]): Promise<void> {
    return eraseFromReadStore(this.view.db, (store) => this.view.traineeTables(store), { traineeId, ukprn, stream });
  }
}
