/** The projector's options, logger and health as its users see them (see projector.ts). */
import type { LogPosition, PermanentSubscriptionError, RecordedEvent } from '@app/event-sourcing';

export interface ProjectorLogger {
  error(message: string, context?: Record<string, unknown>): void;
  warn(message: string, context?: Record<string, unknown>): void;
}

/** Tuning of a {@link Projector}; tests inject small delays. */
export interface ProjectorOptions {
  /** Events applied per batch at most (default 1000). */
  batchSize?: number;
  /** First back-off after a failure, in ms (default 100); doubled after each failure. */
  retryDelayMs?: number;
  /** Longest back-off, in ms (default 5000). */
  maxRetryDelayMs?: number;
  /** Failed attempts at one event, while the store answers, before it is parked (default 5; PROJECTOR_MAX_ATTEMPTS). */
  maxAttempts?: number;
  /** The clock of `parked_at` and `since` (default: the system clock). */
  now?: () => Date;
  /** Told of each batch's events once stored (the API drops cached tokens); what it throws is logged and ignored. */
  onApplied?: (events: readonly RecordedEvent[]) => void;
  /** Told of each batch stored: its events and how long the store took, in seconds (metrics and traces; must not throw). */
  onBatchStored?: (events: readonly RecordedEvent[], seconds: number) => void;
  /**
   * Told each time the checkpoint moves (a batch applied, an event parked), after `onApplied`, as
   * writers waiting for it are released (a projection thread tells the API's thread; must not throw).
   */
  onAdvanced?: (checkpoint: LogPosition) => void;
  /**
   * Told once when the subscription ends with an error that subscribing again cannot cure
   * ({@link PermanentSubscriptionError}); the projector has stopped (state `failed`). The processes
   * exit non-zero on it, so their supervisor restarts them (docs/DESIGN.md "Failures of the
   * subscription"). What it throws is ignored.
   */
  onFatal?: (error: PermanentSubscriptionError) => void;
}

/** What is failing: the subscription to the log, or applying one event (named by stream, revision, type, position). */
export interface ProjectorFailure {
  kind: 'subscription' | 'apply';
  message: string;
  stream_id?: string;
  revision?: number;
  type?: string;
  position?: LogPosition;
  /** Failed attempts so far (at this event, or at subscribing). */
  attempts: number;
  /** ISO 8601 instant of the first failure of this run of failures. */
  since: string;
}

/** What `/readyz` and the logs show of a projector: see {@link Projector.health}. */
export interface ProjectorHealth {
  /**
   * `stopped` before `start()` and after `stop()`; `failing` while in back-off; `failed` once the
   * subscription ended for good ({@link ProjectorOptions.onFatal}); else `live`.
   */
  state: 'stopped' | 'live' | 'failing' | 'failed';
  checkpoint: LogPosition;
  failure: ProjectorFailure | null;
  /** Events parked by this projector since it was created. */
  parked: number;
}

/**
 * A projector as the process that runs it sees it, wherever it runs (in this thread, or in a
 * projection thread): its checkpoint and health, catching up, starting and stopping, and waiting
 * for a position (read-your-writes).
 */
export interface ProjectorHandle {
  /** The position of the last event applied. */
  readonly checkpoint: LogPosition;
  /** True between `start()` and `stop()` while nothing fails. */
  readonly live: boolean;
  health(): ProjectorHealth;
  /** Applies everything up to the head once; resolves with the checkpoint. */
  catchUp(): Promise<number>;
  /** Starts projecting live; resolves once subscribed. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Resolves true once every event up to `position` is applied, false after `timeoutMs`. */
  waitFor(position: LogPosition, timeoutMs?: number): Promise<boolean>;
}
