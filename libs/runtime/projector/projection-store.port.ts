import type { EventStore, LogPosition, RecordedEvent } from '@app/event-sourcing';
import type { ChangeFeed } from '@app/changes';
import type { ProviderReadModel } from '@app/providers/read';
import type { TraineeReadModel } from '@app/trainees/read';

/** The write side of the projections, used only by the projector. */
export interface ProjectionStore {
  /** Position of the last event applied (`LOG_START` when none). */
  checkpoint(): Promise<LogPosition>;
  /**
   * Applies a batch of events in position order and stores the checkpoint with it, atomically
   * where the store allows. Idempotent: an event at or below a document's revision is skipped.
   */
  applyBatch(events: RecordedEvent[]): Promise<void>;
  /**
   * Where the store can (SQLite): while it has applied nothing (or a first build is under way),
   * the stream build of its trainee documents, whose `finish` moves every checkpoint of the store;
   * else null (see `buildEmptyStore`, docs/DESIGN.md "Rebuilding by stream").
   */
  initialStreamBuild?(): Promise<StreamBuild | null>;
  /**
   * Where the store drops an old store after a swap in the background (SQLite): finishes the drops
   * left pending (a process that swapped and was stopped before the drop ended); resolves once none
   * is left. The projector starts it when it starts.
   */
  dropPendingStores?(): Promise<void>;
}

/**
 * Named checkpoints of other consumers of the event log (such as the registry process manager),
 * kept beside the projections' own. Positions only move forward.
 */
export interface CheckpointStore {
  /** The stored position of consumer `name`, `LOG_START` when none. */
  readCheckpoint(name: string): Promise<LogPosition>;
  /** Stores `position` for `name` unless a later one is stored already. */
  writeCheckpoint(name: string, position: LogPosition): Promise<void>;
}

/** A read store serving every projection: what the API, the projector and the admin CLI open. */
export interface ReadModelStore extends TraineeReadModel, ChangeFeed, ProviderReadModel, ProjectionStore, CheckpointStore {
  /**
   * Forgets an erased trainee (docs/DESIGN.md "Personal data"), in every trainee store the read
   * store holds (served, being rebuilt, kept): deletes its document and answers and makes its
   * change feed entries again from `stream`, its whole stream read after its key was destroyed, so
   * they equal a rebuild's; `ukprn` is its provider. What is deleted does not stay readable in the
   * store's own files where the store can promise it (SQLite: zeroed pages, the WAL truncated).
   */
  eraseTrainee(traineeId: string, ukprn: string, stream: readonly RecordedEvent[]): Promise<void>;
  close(): Promise<void> | void;
}

/** How far a stream-by-stream build got: every stream up to `lastStream` (stream-id order) is built up to `toPosition`. */
export interface StreamCursor {
  toPosition: LogPosition;
  lastStream: string;
}

/**
 * A store's documents built from whole streams (docs/DESIGN.md "Rebuilding by stream"): each
 * document is folded, rendered and written once, from its stream's events up to a snapshot
 * position. Only for a projection whose documents each depend on one stream (the trainee projection).
 */
export interface StreamBuild {
  /** The streams the documents are built from. */
  streamPrefix: string;
  /** Where an interrupted stream phase stopped; null when none began. */
  cursor(): Promise<StreamCursor | null>;
  /**
   * Stores the documents of these whole streams (whose documents the store does not hold yet,
   * their events up to `cursor.toPosition`) and the cursor, in one transaction.
   */
  applyStreams(events: RecordedEvent[], cursor: StreamCursor): Promise<void>;
  /** Ends the stream phase: the checkpoint becomes `toPosition` and the cursor is forgotten, together. */
  finish(toPosition: LogPosition): Promise<void>;
  /**
   * After a failed stream phase: puts back what the phase set aside for bulk writing (SQLite: the
   * secondary indexes), keeping the documents and the cursor.
   */
  abandon?(): Promise<void>;
  /**
   * Where the store runs the phase itself (SQLite: reading and preparing in a worker thread), the
   * whole phase as {@link buildStreams} would run it; null when it cannot for this event store.
   */
  run?(
    eventStore: EventStore,
    options: { batchSize: number; shouldStop?: () => boolean; onBatch?: (done: number) => void },
  ): Promise<StreamPhase> | null;
}

/** What {@link buildStreams} did: the snapshot position, events applied in this run, and whether `shouldStop` cut it short. */
export interface StreamPhase {
  toPosition: LogPosition;
  done: number;
  interrupted: boolean;
}
