import type { EventStore, LogPosition, RecordedEvent } from '@app/event-sourcing';
import type { ChangeFeed } from '@app/changes';
import type { ProviderReadModel } from '@app/providers/read';
import type { TraineeReadModel } from '@app/trainees/read';

/** The write side of the projections, for the projector only. */
export interface ProjectionStore {
  /** `LOG_START` when none. */
  checkpoint(): Promise<LogPosition>;
  /** In position order, with the checkpoint, atomically where the store allows; an event at or below a document's revision is skipped. */
  applyBatch(events: RecordedEvent[]): Promise<void>;
  /** While nothing is applied, the stream build whose `finish` moves every checkpoint (SQLite; docs/DESIGN.md "Rebuilding by stream"). */
  initialStreamBuild?(): Promise<StreamBuild | null>;
  /** Finishes drops of old stores a stop left pending after a swap (SQLite); the projector starts it when it starts. */
  dropPendingStores?(): Promise<void>;
}

/** Other log consumers' named checkpoints (the registry process manager's), beside the projections'; they only move forward. */
export interface CheckpointStore {
  /** `LOG_START` when none. */
  readCheckpoint(name: string): Promise<LogPosition>;
  /** Unless a later one is stored already. */
  writeCheckpoint(name: string, position: LogPosition): Promise<void>;
}

/** What the API, the projector and the admin CLI open. */
export interface ReadModelStore extends TraineeReadModel, ChangeFeed, ProviderReadModel, ProjectionStore, CheckpointStore {
  /**
   * Forgets an erased trainee in every trainee store held (served, rebuilding, kept): its document and answers deleted, its feed
   * entries made again from `stream` read after its key was destroyed, as a rebuild would; deleted pages zeroed where the store can.
   */
  eraseTrainee(traineeId: string, ukprn: string, stream: readonly RecordedEvent[]): Promise<void>;
  close(): Promise<void> | void;
}

/** Every stream up to `lastStream` (stream-id order) is built up to `toPosition`. */
export interface StreamCursor {
  toPosition: LogPosition;
  lastStream: string;
}

/** Documents built once each from whole streams up to a snapshot position: the trainees' (docs/DESIGN.md "Rebuilding by stream"). */
export interface StreamBuild {
  streamPrefix: string;
  /** Null when none began. */
  cursor(): Promise<StreamCursor | null>;
  /** Documents of these whole streams, not yet held, with the cursor, in one transaction. */
  applyStreams(events: RecordedEvent[], cursor: StreamCursor): Promise<void>;
  /** The checkpoint becomes `toPosition` and the cursor is forgotten, together. */
  finish(toPosition: LogPosition): Promise<void>;
  /** After a failure: puts back what the phase set aside (SQLite: the secondary indexes), keeping documents and cursor. */
  abandon?(): Promise<void>;
  /** The whole phase run by the store itself (SQLite: in a worker thread); null when it cannot for this event store. */
  run?(
    eventStore: EventStore,
    options: { batchSize: number; shouldStop?: () => boolean; onBatch?: (done: number) => void },
  ): Promise<StreamPhase> | null;
}

/** `stopped`: `shouldStop` cut it short. */
export interface StreamPhase {
  toPosition: LogPosition;
  done: number;
  interrupted: boolean;
}
