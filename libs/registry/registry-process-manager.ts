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

export const REGISTRY_PM_CHECKPOINT = 'registry_process_manager_v1';

export const REGISTRY_PM_EVENT_TYPES = ['TraineeSubmittedForTrn', 'TraineeRecommendedForAward', 'TrnIssued'];

/** The process manager's position in the log; a stored position moves forward only, but for a reset. */
export interface CheckpointStore {
  /** `LOG_START` when none. */
  readCheckpoint(name: string): Promise<LogPosition>;
  /** Unless a later one is stored already. */
  writeCheckpoint(name: string, position: LogPosition): Promise<void>;
  /** Back as well as forward: for a checkpoint beyond the log's head, after a log restored older than it. */
  resetCheckpoint(name: string, position: LogPosition): Promise<void>;
}

export interface ProcessManagerLogger {
  info(message: string, context?: Record<string, unknown>): void;
  warn(message: string, context?: Record<string, unknown>): void;
  error(message: string, context?: Record<string, unknown>): void;
}

/**
 * The registry process manager (docs/DESIGN.md "The registry process manager"): one event at a time from its checkpoint, which moves
 * only after the result is recorded; recording is idempotent and each request carries an idempotency key, so no event is acted on twice.
 * Transient registry failures are retried with backoff, never skipped; a permanent refusal or a domain error is logged and passed.
 * Each call says when its request arose (API-FACTS §12.1, §12.5): the sandbox's delay counts from the event, not its handling.
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
      /** Tracing puts the handling in the trace of the write that caused it; must call `handle`. */
      around?: (event: RecordedEvent, handle: () => Promise<void>) => Promise<void>;
      /** The subscription failed for good: the process should exit (docs/DESIGN.md "Failures of the subscription"). */
      onFatal?: (error: PermanentSubscriptionError) => void;
    } = {},
  ) {}

  get checkpoint(): LogPosition {
    return this.position;
  }

  /** Since start. */
  get eventsHandled(): number {
    return this.handled;
  }

  /**
   * Returns once subscribed. A failed subscription is reopened from the checkpoint after a back-off (100 ms doubling to `maxBackoffMs`);
   * a {@link PermanentSubscriptionError} ends the loop and tells `onFatal`. A checkpoint beyond the log's head (a log restored older
   * than it) is reset to the log's start, logged at warn: the outcomes recorded after the log's backup went with it, and handling every
   * event again asks the registry only where the log holds no outcome, with the same idempotency key (its answer is the first one).
   */
  async start(): Promise<void> {
    this.position = await this.checkpoints.readCheckpoint(REGISTRY_PM_CHECKPOINT);
    if (this.position !== LOG_START) {
      const head = await this.eventStore.headPosition();
      if (this.position > head) {
        this.logger.warn("registry process manager's checkpoint is beyond the log's head: handling the log again from its start", {
          checkpoint: this.position,
          head,
        });
        await this.checkpoints.resetCheckpoint(REGISTRY_PM_CHECKPOINT, LOG_START);
        this.position = LOG_START;
      }
    }
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
   * Stops after the event in hand: an HTTP request in flight finishes and is recorded (a restart repeats no call); the sandbox's wait is
   * abandoned and that event, its checkpoint not stored, is handled again after restart.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    await this.subscription?.unsubscribe();
    await this.loop;
  }

  /** False when stopped before it could be: it is handled after restart. */
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

/** `occurredAt`, else the data's `at` when a valid instant; undefined otherwise (the sandbox then counts from the call). */
export function eventTime(event: Pick<RecordedEvent, 'metadata' | 'data'>): string | undefined {
  const candidates = [event.metadata?.occurredAt, (event.data as { at?: unknown } | null)?.at];
  return candidates.find((t): t is string => typeof t === 'string' && !Number.isNaN(Date.parse(t)));
}

/** Causation: the event acted on; correlation: its chain's, else its request's. */
function causedBy(cause: RecordedEvent): { causationId: string; correlationId: string | null } {
  const m = cause.metadata;
  const correlation = typeof m.correlationId === 'string' ? m.correlationId : typeof m.requestId === 'string' ? m.requestId : null;
  return { causationId: cause.id, correlationId: correlation };
}
