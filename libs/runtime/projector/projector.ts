import {
  laterPosition,
  LOG_START,
  PermanentSubscriptionError,
  type EventFilter,
  type EventStore,
  type LogPosition,
  type RecordedEvent,
  type Subscription,
} from '@app/event-sourcing';
import { PROVIDER_STREAM_PREFIX } from '@app/providers/decider';
import { TRAINEE_STREAM_PREFIX } from '@app/trainees/decider';
import type { ProjectionStore } from './projection-store.port';
import { errorMessage, keepsParkedEvents, parkedRecord } from './parked-events';
import { buildEmptyStore } from './stream-build';
import type { ProjectorFailure, ProjectorHandle, ProjectorHealth, ProjectorLogger, ProjectorOptions } from './projector-types';
import { PositionWaiters } from './position-waiters';

export type { ProjectorFailure, ProjectorHealth, ProjectorLogger, ProjectorOptions } from './projector-types';

/** Events per batch when catching up (live batches are whatever arrived together, at most `batchSize`). */
const CATCH_UP_BATCH_SIZE = 10_000;

/** The streams the projections read. */
export const PROJECTED_STREAMS: EventFilter = { streamPrefixes: [TRAINEE_STREAM_PREFIX, PROVIDER_STREAM_PREFIX] };

/**
 * Keeps the read models up to date from the global event log, in position order, from the
 * stored checkpoint: catch-up, then live (docs/DESIGN.md "The shape"). Events that arrive together are
 * applied in one batch (one transaction on SQLite). `waitFor(position)` lets a writer answer only
 * once its events are projected (docs/DESIGN.md "Read-your-writes").
 *
 * Goes on through every failure that retrying can cure, so one bad event or a dropped connection
 * never leaves every other trainee unprojected (docs/operations.md "Health"; docs/DESIGN.md
 * "Failures of the subscription"):
 * - a subscription that errors or ends is logged and opened again from the checkpoint, with
 *   exponential back-off; only an error that subscribing again cannot cure
 *   ({@link PermanentSubscriptionError}) stops it for good (state `failed`, `onFatal` told);
 * - a failing batch is applied again event by event, so the failure names its event (stream,
 *   revision, type, position); a failing event is retried with back-off, and after
 *   `maxAttempts` failed attempts while the store answers (an unreachable store is waited for,
 *   never a reason to park) it is PARKED when the store keeps parked events
 *   (`ParkedEventStore`): recorded, skipped (the checkpoint moves past it), logged at error.
 * - every later event of a stream with a parked event is parked at once (attempts 0), so no
 *   document is folded over a gap: the document stays at the revision before the parked event.
 *   A writer of that trainee starts from that document's revision and folds the stream's tail
 *   from the event log (`runCommand`), parked event included: its decision is taken on the
 *   log's state, never on the gap; if the domain cannot fold the event either, the write fails
 *   before appending. Reads of that trainee stay at the document until the cause is fixed and
 *   the projection rebuilt (`admin projections rebuild`), whose swap forgets its parked events.
 */
export class Projector implements ProjectorHandle {
  private position = LOG_START;
  private subscription: Subscription | null = null;
  private buffer: RecordedEvent[] = [];
  private scheduled = false;
  private chain: Promise<void> = Promise.resolve();
  private readonly waiters = new PositionWaiters();
  private stopped = false;
  private running = false;
  private applied = 0;
  private parkedCount = 0;
  private parkedStreams: Set<string> | null = null;
  private loop: Promise<void> | null = null;
  private subscriptionFailure: ProjectorFailure | null = null;
  private applyFailure: ProjectorFailure | null = null;
  /** The failure that ended the subscription for good; set, the projector no longer runs. */
  private fatalFailure: ProjectorFailure | null = null;
  private wakeSleepers: Array<() => void> = [];

  constructor(
    private readonly eventStore: EventStore,
    private readonly store: ProjectionStore,
    private readonly logger: ProjectorLogger,
    private readonly options: ProjectorOptions = {},
  ) {}

  /** The position of the last event applied. */
  get checkpoint(): LogPosition {
    return this.position;
  }

  /** Events handed to the store by this projector since it was created (redeliveries included). */
  get eventsApplied(): number {
    return this.applied;
  }

  /** True between `start()` and `stop()` while nothing fails. */
  get live(): boolean {
    return this.health().state === 'live';
  }

  /** The state, checkpoint, current failure (the subscription's first) and events parked since creation. */
  health(): ProjectorHealth {
    if (this.fatalFailure) return { state: 'failed', checkpoint: this.position, failure: this.fatalFailure, parked: this.parkedCount };
    const failure = this.subscriptionFailure ?? this.applyFailure;
    const state = !this.running ? 'stopped' : failure ? 'failing' : 'live';
    return { state, checkpoint: this.position, failure, parked: this.parkedCount };
  }

  /**
   * Applies everything up to the current head once and returns the checkpoint (admin CLI, tests,
   * the API's start); parks as the live path does. A store that has applied nothing is first built
   * stream by stream where it can ({@link buildEmptyStore}).
   */
  async catchUp(): Promise<number> {
    await this.loadParkedStreams();
    this.position = laterPosition(this.position, await this.store.checkpoint());
    // Larger batches than live: fewer transactions, and a trainee's events met in one batch are
    // folded into one document (and one rendering of its answers) per batch.
    const batchSize = this.options.batchSize ?? CATCH_UP_BATCH_SIZE;
    if (this.position === 0) {
      const warn = (message: string, context: Record<string, unknown>) => this.logger.warn(message, context);
      this.applied += (await buildEmptyStore(this.eventStore, this.store, { batchSize, shouldStop: () => this.stopped, warn })) ?? 0;
      this.position = laterPosition(this.position, await this.store.checkpoint());
    }
    for (;;) {
      const events = await this.eventStore.readAll({ fromPosition: this.position, maxCount: batchSize, filter: PROJECTED_STREAMS });
      if (events.length === 0 || this.stopped) return this.position;
      if (!(await this.applyEvents(events))) return this.position;
    }
  }

  /**
   * Starts the live subscription from the stored checkpoint; returns once subscribed. Starts the
   * store's pending drops too (`ProjectionStore.dropPendingStores`), in the background.
   */
  async start(): Promise<void> {
    await this.loadParkedStreams();
    this.position = laterPosition(this.position, await this.store.checkpoint());
    this.stopped = false;
    this.running = true;
    const sub = this.eventStore.subscribeToAll({ fromPosition: this.position, filter: PROJECTED_STREAMS });
    this.subscription = sub;
    this.loop = this.consume(sub);
    // An old store a swap left to drop (its process stopped mid-drop): finished in the background, in slices.
    this.store
      .dropPendingStores?.()
      .catch((err: unknown) => this.logger.warn('dropping an old store failed', { error: errorMessage(err) }));
  }

  /** Reads the subscription into batches; on its error or end, resubscribes from the checkpoint with back-off. */
  private async consume(first: Subscription): Promise<void> {
    let sub = first;
    let delay = this.options.retryDelayMs ?? 100;
    for (let attempts = 1; ; attempts++) {
      try {
        for await (const event of sub) {
          if (this.stopped) return;
          if (this.subscriptionFailure) this.subscriptionRecovered();
          attempts = 1;
          delay = this.options.retryDelayMs ?? 100;
          this.buffer.push(event);
          if (this.buffer.length >= (this.options.batchSize ?? 1000)) await this.flush();
          else if (!this.scheduled) {
            this.scheduled = true;
            setImmediate(() => void this.flush());
          }
        }
        if (this.stopped) return;
        throw new Error('the subscription ended');
      } catch (err) {
        if (this.stopped) return;
        if (err instanceof PermanentSubscriptionError) return this.endForGood(err, attempts);
        const since = this.subscriptionFailure?.since ?? this.now().toISOString();
        this.subscriptionFailure = { kind: 'subscription', message: errorMessage(err), attempts, since };
        this.logger.error('projector subscription failed; resubscribing from the checkpoint', {
          error: errorMessage(err),
          checkpoint: this.position,
          attempts,
          retry_in_ms: delay,
        });
        await sub.unsubscribe().catch(() => undefined);
        await this.sleep(delay);
        delay = Math.min(delay * 2, this.options.maxRetryDelayMs ?? 5000);
        await this.flush();
        if (this.stopped) return;
        sub = this.eventStore.subscribeToAll({ fromPosition: this.position, filter: PROJECTED_STREAMS });
        this.subscription = sub;
      }
    }
  }

  /** Applies what is buffered, records the failure (state `failed`), logs it and tells {@link ProjectorOptions.onFatal}. */
  private async endForGood(err: PermanentSubscriptionError, attempts: number): Promise<void> {
    await this.flush();
    const since = this.subscriptionFailure?.since ?? this.now().toISOString();
    this.fatalFailure = { kind: 'subscription', message: errorMessage(err), attempts, since };
    this.subscriptionFailure = null;
    this.logger.error('projector subscription cannot go on; the projector has stopped', {
      error: errorMessage(err),
      checkpoint: this.position,
    });
    try {
      this.options.onFatal?.(err);
    } catch (fatalError) {
      this.logger.warn('onFatal failed', { error: errorMessage(fatalError) });
    }
  }

  private subscriptionRecovered(): void {
    this.logger.warn('projector subscription recovered', { checkpoint: this.position });
    this.subscriptionFailure = null;
  }

  /** Hands the buffered events to the apply chain, which applies batches strictly one after another. */
  private flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.buffer;
    this.buffer = [];
    if (batch.length > 0) this.chain = this.chain.then(() => this.applyEvents(batch).then(() => undefined));
    return this.chain;
  }

  /** Applies a batch (events at or below the checkpoint skipped); on failure event by event. False when stopped midway. */
  private async applyEvents(events: RecordedEvent[]): Promise<boolean> {
    const batch = events.filter((e) => e.position > this.position);
    if (batch.length === 0) return true;
    if (!batch.some((e) => this.parkedStreams?.has(e.streamId))) {
      try {
        await this.timed(batch, () => this.store.applyBatch(batch));
        this.applied += batch.length;
        this.notifyApplied(batch);
        this.advance(batch[batch.length - 1].position);
        return true;
      } catch (err) {
        this.logger.warn('projection batch failed; applying its events one by one', {
          error: errorMessage(err),
          from: batch[0].position,
          to: batch[batch.length - 1].position,
        });
      }
    }
    for (const event of batch) if (!(await this.applyOne(event))) return false;
    return true;
  }

  /** Applies one event with back-off; parks it after `maxAttempts`. False when stopped before it was applied or parked. */
  private async applyOne(event: RecordedEvent): Promise<boolean> {
    if (this.parkedStreams?.has(event.streamId)) {
      const reason = new Error(`an earlier event of stream ${event.streamId} is parked`);
      return this.park(event, reason, 0);
    }
    const maxAttempts = this.options.maxAttempts ?? 5;
    let delay = this.options.retryDelayMs ?? 100;
    for (let attempts = 0; ;) {
      if (this.stopped) return false;
      try {
        await this.timed([event], () => this.store.applyBatch([event]));
        this.applied += 1;
        this.notifyApplied([event]);
        this.advance(event.position);
        this.applyFailure = null;
        return true;
      } catch (err) {
        if (await this.storeAnswers()) attempts++;
        this.failedAt(event, err, attempts);
        if (attempts >= maxAttempts && keepsParkedEvents(this.store) && (await this.park(event, err, attempts))) return true;
        await this.sleep(delay);
        delay = Math.min(delay * 2, this.options.maxRetryDelayMs ?? 5000);
      }
    }
  }

  private failedAt(event: RecordedEvent, err: unknown, attempts: number): void {
    const since = this.applyFailure?.position === event.position ? this.applyFailure.since : this.now().toISOString();
    this.applyFailure = { kind: 'apply', message: errorMessage(err), ...this.describe(event), attempts, since };
    this.logger.error('projection of an event failed; retrying', { ...this.describe(event), error: errorMessage(err), attempts });
  }

  /** True when the store still answers (its checkpoint can be read): then a failure is the event's, and counts. */
  private async storeAnswers(): Promise<boolean> {
    try {
      await this.store.checkpoint();
      return true;
    } catch {
      return false;
    }
  }

  /** Records the event as parked and moves past it; false when the store could not record it (the caller retries). */
  private async park(event: RecordedEvent, err: unknown, attempts: number): Promise<boolean> {
    if (!keepsParkedEvents(this.store)) return false;
    try {
      await this.store.parkEvent(parkedRecord(event, err, attempts, this.now()));
    } catch (parkError) {
      this.logger.error('could not park a failing event', { ...this.describe(event), error: errorMessage(parkError) });
      return false;
    }
    (this.parkedStreams ??= new Set()).add(event.streamId);
    this.parkedCount++;
    this.applyFailure = null;
    this.logger.error('projection event parked: skipped after failed attempts', {
      ...this.describe(event),
      error: errorMessage(err),
      attempts,
    });
    this.advance(event.position);
    return true;
  }

  /** Stores a batch and tells {@link ProjectorOptions.onBatchStored} how long it took. */
  private async timed(events: readonly RecordedEvent[], store: () => Promise<void>): Promise<void> {
    const started = process.hrtime.bigint();
    await store();
    this.options.onBatchStored?.(events, Number(process.hrtime.bigint() - started) / 1e9);
  }

  /** Tells {@link ProjectorOptions.onApplied}, before any writer waiting for these events is released. */
  private notifyApplied(events: readonly RecordedEvent[]): void {
    try {
      this.options.onApplied?.(events);
    } catch (err) {
      this.logger.warn('onApplied failed', { error: errorMessage(err) });
    }
  }

  private describe(event: RecordedEvent): { stream_id: string; revision: number; type: string; position: LogPosition } {
    return { stream_id: event.streamId, revision: event.streamRevision, type: event.type, position: event.position };
  }

  private async loadParkedStreams(): Promise<void> {
    if (this.parkedStreams || !keepsParkedEvents(this.store)) return;
    this.parkedStreams = new Set((await this.store.parkedEvents()).map((p) => p.stream_id));
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  /** Waits `ms`, or less when `stop()` is called. */
  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakeSleepers = this.wakeSleepers.filter((w) => w !== wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakeSleepers.push(wake);
    });
  }

  private advance(position: LogPosition): void {
    if (position > this.position) this.position = position;
    this.options.onAdvanced?.(this.position);
    this.waiters.advance(this.position);
  }

  /**
   * Resolves true once every event up to `position` is applied, or false after `timeoutMs`
   * (default 10 s). Positions of streams the projector does not read resolve when a later event
   * is applied or at the timeout.
   */
  waitFor(position: LogPosition, timeoutMs = 10_000): Promise<boolean> {
    return this.waiters.wait(position, this.position, timeoutMs);
  }

  /** Stops the subscription after applying what it has buffered (a failing event is left for the next start). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const wake of [...this.wakeSleepers]) wake();
    await this.subscription?.unsubscribe();
    await this.loop;
    await this.flush();
    this.running = false;
    this.subscriptionFailure = null;
    this.applyFailure = null;
    this.fatalFailure = null;
    this.waiters.releaseAll(true);
  }
}
