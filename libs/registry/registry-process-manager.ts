import {
  decide,
  decodeTraineeEvent,
  evolve,
  initialTraineeState,
  type TraineeCommand,
  type TraineeEvent,
  type TraineeState,
  traineeStreamId,
} from '@app/trainees/decider';
import { type Trainee } from '@app/trainees/record';
import {
  DomainError,
  toEventData,
  type EventStore,
  newEventId,
  LOG_START,
  PermanentSubscriptionError,
  type LogPosition,
  type RecordedEvent,
  runCommand,
  type Subscription,
} from '@app/event-sourcing';
import { RegistryUnavailable, type TeacherRegistry } from './registry.port';

/** Name of the process manager's checkpoint in the checkpoint store. */
export const REGISTRY_PM_CHECKPOINT = 'registry_process_manager_v1';

/** The events the process manager acts on. */
export const REGISTRY_PM_EVENT_TYPES = ['TraineeSubmittedForTrn', 'TraineeRecommendedForAward', 'TrnIssued'];

/**
 * Where the process manager keeps its position in the log (the read store's named checkpoints,
 * docs/DESIGN.md "Read models"); a stored position only moves forward.
 */
export interface CheckpointStore {
  /** The stored position of consumer `name`, `LOG_START` when none. */
  readCheckpoint(name: string): Promise<LogPosition>;
  /** Stores `position` for `name` unless a later one is stored already. */
  writeCheckpoint(name: string, position: LogPosition): Promise<void>;
}

export interface ProcessManagerLogger {
  info(message: string, context?: Record<string, unknown>): void;
  warn(message: string, context?: Record<string, unknown>): void;
  error(message: string, context?: Record<string, unknown>): void;
}

/**
 * The registry process manager (docs/DESIGN.md "The registry process manager"), driven by the event
 * log so it survives restarts: from its stored checkpoint it reads `TraineeSubmittedForTrn` (asks
 * the registry for a TRN, records `TrnIssued`) and `TraineeRecommendedForAward` / `TrnIssued` (once
 * a recommended trainee has a TRN, reports it and records `TraineeAwarded`). One event at a time;
 * the checkpoint moves only after the event's result is recorded, and recording is idempotent (a
 * trainee with a TRN gets no second `TrnIssued`), so an event is never acted on twice once handled.
 * Each registry request carries an idempotency key, so a request repeated after a crash is
 * recognised by the registry. Transient registry failures are retried with backoff (never skipped);
 * a permanent refusal or a domain error is logged and the event passed.
 *
 * Each registry call says when its request arose (docs/reference/API-FACTS.md §12.1, §12.5): a TRN
 * request at the time of its `TraineeSubmittedForTrn` ({@link eventTime}), an award at the
 * recommendation (`recommended_for_award_at`, the `at` of `TraineeRecommendedForAward`), so that
 * the sandbox registry's delay counts from then and not from when the event is handled.
 */
export class RegistryProcessManager {
  private subscription: Subscription | null = null;
  private loop: Promise<void> | null = null;
  private stopped = false;
  private position = LOG_START;
  private handled = 0;
  private readonly abort = new AbortController();

  constructor(
    private readonly eventStore: EventStore,
    private readonly checkpoints: CheckpointStore,
    private readonly registry: TeacherRegistry,
    private readonly logger: ProcessManagerLogger,
    private readonly options: {
      clock?: () => Date;
      maxBackoffMs?: number;
      /** Runs the handling of an event (tracing puts it in the trace of the write that caused it); must call `handle`. */
      around?: (event: RecordedEvent, handle: () => Promise<void>) => Promise<void>;
      /**
       * Told when the subscription ends with an error that subscribing again cannot cure; the
       * process manager has stopped and the process should exit (docs/DESIGN.md "Failures of the
       * subscription").
       */
      onFatal?: (error: PermanentSubscriptionError) => void;
    } = {},
  ) {}

  /** Position of the last event handled. */
  get checkpoint(): LogPosition {
    return this.position;
  }

  /** Events handled since start. */
  get eventsHandled(): number {
    return this.handled;
  }

  /**
   * Subscribes from the stored checkpoint; returns once subscribed. A subscription that fails is
   * opened again from the checkpoint after a back-off (100 ms doubling to `maxBackoffMs`), logged;
   * one that fails with a {@link PermanentSubscriptionError} ends the loop and tells `onFatal`.
   */
  async start(): Promise<void> {
    this.position = await this.checkpoints.readCheckpoint(REGISTRY_PM_CHECKPOINT);
    this.subscription = this.subscribe();
    this.loop = this.consume();
  }

  private subscribe(): Subscription {
    return this.eventStore.subscribeToAll({ fromPosition: this.position, filter: { eventTypes: REGISTRY_PM_EVENT_TYPES } });
  }

  private async consume(): Promise<void> {
    let backoff = 100;
    while (!this.stopped && this.subscription) {
      try {
        for await (const event of this.subscription) {
          if (this.stopped) return;
          const done = await this.handleWithRetry(event);
          if (!done) return;
          await this.checkpoints.writeCheckpoint(REGISTRY_PM_CHECKPOINT, event.position);
          this.position = event.position;
          this.handled++;
          backoff = 100;
        }
        if (this.stopped) return;
        throw new Error('the subscription ended');
      } catch (err) {
        if (this.stopped) return;
        if (err instanceof PermanentSubscriptionError) {
          this.logger.error('registry process manager stopped: its subscription cannot go on', { error: err.message });
          this.options.onFatal?.(err);
          return;
        }
        this.logger.error('registry process manager failed; resubscribing from its checkpoint', {
          error: String(err),
          checkpoint: this.position,
          retry_in_ms: backoff,
        });
        await this.subscription.unsubscribe().catch(() => undefined);
        await this.pause(backoff);
        backoff = Math.min(backoff * 2, this.options.maxBackoffMs ?? 30_000);
        if (!this.stopped) this.subscription = this.subscribe();
      }
    }
  }

  /** Waits `ms`, or less when stopped. */
  private pause(ms: number): Promise<void> {
    const signal = this.abort.signal;
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /**
   * Stops after the event in hand: an HTTP registry request in flight is let finish and its answer
   * recorded (so a restart repeats no call); the sandbox registry's wait for its due time is
   * abandoned, and that event, its checkpoint not stored, is handled again after restart (at once
   * if its due time has passed by then).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    await this.subscription?.unsubscribe();
    await this.loop;
  }

  /** Handles one event; false when stopped before it could be (it will be handled after restart). */
  private async handleWithRetry(event: RecordedEvent): Promise<boolean> {
    let backoff = 100;
    for (;;) {
      try {
        await (this.options.around ? this.options.around(event, () => this.handle(event)) : this.handle(event));
        return true;
      } catch (err) {
        if (this.stopped) return false;
        if (err instanceof DomainError || (err instanceof RegistryUnavailable && err.message.includes('permanent: true'))) {
          this.logger.error('registry process manager passed an event it cannot act on', {
            event: event.id,
            type: event.type,
            error: err.message,
          });
          return true;
        }
        this.logger.warn('registry process manager will retry', {
          event: event.id,
          type: event.type,
          error: String(err),
          retry_in_ms: backoff,
        });
        if (this.stopped) return false;
        await new Promise((r) => setTimeout(r, backoff));
        backoff = Math.min(backoff * 2, this.options.maxBackoffMs ?? 30_000);
        if (this.stopped) return false;
      }
    }
  }

  private async handle(event: RecordedEvent): Promise<void> {
    const traineeId = (event.data as { trainee_id?: string }).trainee_id;
    if (!traineeId) return;
    const trainee = await this.load(traineeId);
    if (!trainee) return;
    if (event.type === 'TraineeSubmittedForTrn') {
      if (trainee.trn) return;
      const { trn } = await this.registry.requestTrn(
        {
          idempotency_key: event.id,
          trainee_id: trainee.trainee_id,
          provider_ukprn: trainee.ukprn,
          first_names: trainee.details.first_names,
          last_name: trainee.details.last_name,
          date_of_birth: trainee.details.date_of_birth,
          email: trainee.details.email,
        },
        this.abort.signal,
        { requestedAt: eventTime(event) },
      );
      await this.record(trainee, event, (now) => ({ type: 'RecordTrnIssued', trainee_id: trainee.trainee_id, trn, now }));
      this.logger.info('TRN issued by the registry', { trainee_id: trainee.trainee_id });
      return;
    }
    // TraineeRecommendedForAward or TrnIssued: award once a recommended trainee has a TRN.
    if (trainee.state !== 'recommended_for_award' || !trainee.trn || !trainee.outcome_date) return;
    const { awarded_at } = await this.registry.recommendForAward(
      {
        idempotency_key: `${trainee.trainee_id}:award:${trainee.recommended_for_award_at}`,
        trainee_id: trainee.trainee_id,
        trn: trainee.trn,
        outcome_date: trainee.outcome_date,
      },
      this.abort.signal,
      { requestedAt: trainee.recommended_for_award_at ?? eventTime(event) },
    );
    await this.record(trainee, event, (now) => ({ type: 'RecordAward', trainee_id: trainee.trainee_id, awarded_at, now }));
    this.logger.info('award recorded from the registry', { trainee_id: trainee.trainee_id });
  }

  private async load(traineeId: string): Promise<Trainee | null> {
    let state: TraineeState = initialTraineeState;
    for (const r of await this.eventStore.readStream(traineeStreamId(traineeId))) {
      const e = decodeTraineeEvent(r);
      if (e) state = evolve(state, e);
    }
    return state.exists ? state.trainee : null;
  }

  private async record(trainee: Trainee, cause: RecordedEvent, command: (now: string) => TraineeCommand): Promise<void> {
    const now = (this.options.clock?.() ?? new Date()).toISOString();
    await runCommand<TraineeState, TraineeEvent>(this.eventStore, traineeStreamId(trainee.trainee_id), {
      initialState: initialTraineeState,
      evolve,
      decode: decodeTraineeEvent,
      decide: (state) => decide(command(now), state),
      encode: (events) => toEventData(events, { occurredAt: now, providerUkprn: trainee.ukprn, ...causedBy(cause) }, newEventId),
    });
  }
}

/**
 * The instant an event occurred (ISO 8601, UTC): its `occurredAt` metadata, or else its data's
 * `at` when that is a valid instant; undefined when neither is (the sandbox registry then counts
 * its delay from the call).
 */
export function eventTime(event: Pick<RecordedEvent, 'metadata' | 'data'>): string | undefined {
  const candidates = [event.metadata?.occurredAt, (event.data as { at?: unknown } | null)?.at];
  return candidates.find((t): t is string => typeof t === 'string' && !Number.isNaN(Date.parse(t)));
}

/** The causation (the event acted on) and correlation (its chain's, else its request's) of a write it causes. */
function causedBy(cause: RecordedEvent): { causationId: string; correlationId: string | null } {
  const m = cause.metadata;
  const correlation = typeof m.correlationId === 'string' ? m.correlationId : typeof m.requestId === 'string' ? m.requestId : null;
  return { causationId: cause.id, correlationId: correlation };
}
