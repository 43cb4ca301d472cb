import type { LogPosition, PermanentSubscriptionError, RecordedEvent } from '@app/event-sourcing';

/** The `code` of a projector's failure for a checkpoint beyond the log's head. */
export const CHECKPOINT_AHEAD_OF_LOG = 'CheckpointAheadOfLog';

export interface ProjectorLogger {
  error(message: string, context?: Record<string, unknown>): void;
  warn(message: string, context?: Record<string, unknown>): void;
}

/** Tuning of a {@link Projector}; tests inject small delays. */
export interface ProjectorOptions {
  /** Default 1000. */
  batchSize?: number;
  /** Ms, doubled after each failure; default 100. */
  retryDelayMs?: number;
  /** Ms; default 5000. */
  maxRetryDelayMs?: number;
  /** Failed attempts at one event after which `catchUp` leaves it to the live subscription, which retries it while it fails (default 3). */
  catchUpAttempts?: number;
  now?: () => Date;
  /** Once stored (the API drops cached tokens); what it throws is logged and ignored. */
  onApplied?: (events: readonly RecordedEvent[]) => void;
  /** With the store's seconds (metrics and traces); must not throw. */
  onBatchStored?: (events: readonly RecordedEvent[], seconds: number) => void;
  /** After `onApplied`, as waiting writers are released (a projection thread tells the API's thread); must not throw. */
  onAdvanced?: (checkpoint: LogPosition) => void;
  /** A failure begins, repeats or ends, or the subscription ends for good (a projection thread tells `/readyz`); must not throw. */
  onHealth?: (health: ProjectorHealth) => void;
  /**
   * The projector has stopped (`failed`); the process exits non-zero (docs/DESIGN.md "Failures of the subscription"). Not told of a
   * checkpoint beyond the log's head, which a restart would meet again: the process stays up, not ready.
   */
  onFatal?: (error: PermanentSubscriptionError) => void;
}

/** The subscription, or one event (by stream, revision, type, position). The message is for logs and tools, never `/readyz`. */
export interface ProjectorFailure {
  kind: 'subscription' | 'apply';
  message: string;
  /** E.g. `SQLITE_FULL`: `/readyz` names a storage fault by it; `CheckpointAheadOfLog` for a checkpoint beyond the log's head. */
  code?: string;
  stream_id?: string;
  revision?: number;
  type?: string;
  position?: LogPosition;
  /** At this event, or at subscribing. */
  attempts: number;
  /** ISO 8601 UTC: the first failure of this run. */
  since: string;
}

export interface ProjectorHealth {
  /** `failing` while in back-off; `failed` once the subscription ended for good ({@link ProjectorOptions.onFatal}). */
  state: 'stopped' | 'live' | 'failing' | 'failed';
  checkpoint: LogPosition;
  failure: ProjectorFailure | null;
}

/** A projector in this thread or a projection thread, as the process running it sees it. */
export interface ProjectorHandle {
  readonly checkpoint: LogPosition;
  /** Between `start()` and `stop()` while nothing fails. */
  readonly live: boolean;
  health(): ProjectorHealth;
  /** Up to the head once; resolves with the checkpoint. */
  catchUp(): Promise<number>;
  /** Resolves once subscribed. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** False after `timeoutMs`. */
  waitFor(position: LogPosition, timeoutMs?: number): Promise<boolean>;
}
