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
  /**
   * Failed attempts at one event after which `catchUp` stops there (default 3), leaving the event to
   * the live subscription, which retries it for as long as it fails.
   */
  catchUpAttempts?: number;
  /** The clock of `since` and of the failure's log lines (default: the system clock). */
  now?: () => Date;
  /** Told of each batch's events once stored (the API drops cached tokens); what it throws is logged and ignored. */
  onApplied?: (events: readonly RecordedEvent[]) => void;
  /** Told of each batch stored: its events and how long the store took, in seconds (metrics and traces; must not throw). */
  onBatchStored?: (events: readonly RecordedEvent[], seconds: number) => void;
  /**
   * Told each time the checkpoint moves (a batch or an event applied), after `onApplied`, as
   * writers waiting for it are released (a projection thread tells the API's thread; must not throw).
   */
  onAdvanced?: (checkpoint: LogPosition) => void;
  /**
   * Told when the health changes other than by a move of the checkpoint: a failure begins, another
   * attempt fails, a failure ends, the subscription ends for good (a projection thread tells the
   * API's thread, whose `/readyz` reads it; must not throw).
   */
  onHealth?: (health: ProjectorHealth) => void;
  /**
   * Told once when the subscription ends with an error that subscribing again cannot cure
   * ({@link PermanentSubscriptionError}); the projector has stopped (state `failed`). The processes
   * exit non-zero on it, so their supervisor restarts them (docs/DESIGN.md "Failures of the
   * subscription"). What it throws is ignored.
   */
  onFatal?: (error: PermanentSubscriptionError) => void;
}

/**
 * What is failing: the subscription to the log, or applying one event (named by stream, revision,
 * type, position). The message is for the logs and the operator's tools, never `/readyz`.
 */
export interface ProjectorFailure {
  kind: 'subscription' | 'apply';
  message: string;
  /** The error's `code` where it had one (SQLite's or Node's, e.g. `SQLITE_FULL`): `/readyz` names a storage fault by it. */
  code?: string;
  stream_id?: string;
  revision?: number;
  type?: string;
  position?: LogPosition;
  /** Failed attempts so far (at this event, or at subscribing). */
  attempts: number;
  /** ISO 8601 instant (UTC) of the first failure of this run of failures. */
  since: string;
}

/** What `/readyz` and the logs show of a projector: see {@link Projector.health}. */
export interface ProjectorHealth {
  /**
   * `stopped` before `start()` and after `stop()`; `failing` while in back-off (resubscribing, or
   * retrying an event it cannot apply); `failed` once the subscription ended for good
   * ({@link ProjectorOptions.onFatal}); else `live`.
   */
  state: 'stopped' | 'live' | 'failing' | 'failed';
  checkpoint: LogPosition;
  failure: ProjectorFailure | null;
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
