import {
  CheckpointAheadOfLog,
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
import { buildEmptyStore } from './stream-build';
import {
  CHECKPOINT_AHEAD_OF_LOG,
  type ProjectorFailure,
  type ProjectorHandle,
  type ProjectorHealth,
  type ProjectorLogger,
  type ProjectorOptions,
} from './projector-types';
import { PositionWaiters } from './position-waiters';
import { PROJECTION_NAMES } from './projection-versions';

export type { ProjectorFailure, ProjectorHealth, ProjectorLogger, ProjectorOptions } from './projector-types';

/** Live batches are whatever arrived together, at most `batchSize`. */
const CATCH_UP_BATCH_SIZE = 10_000;

/** While an event keeps failing. */
const FAILURE_LOG_INTERVAL_MS = 60_000;

/** What mends read models ahead of the log: each projection built again from it. */
const PROJECTIONS_REBUILD = `rebuild each projection from the log (${PROJECTION_NAMES.map((n) => `admin projections rebuild ${n}`).join(', ')})`;

export const PROJECTED_STREAMS: EventFilter = { streamPrefixes: [TRAINEE_STREAM_PREFIX, PROVIDER_STREAM_PREFIX] };

/**
 * Keeps the read models up to date from the log in position order, catch-up then live, events arriving together in one batch; writers
 * wait with `waitFor` (docs/DESIGN.md "Read-your-writes"). Never skips an event: a failing one is retried with back-off while nothing
 * after it applies, and a failed subscription is reopened from the checkpoint, but for a {@link PermanentSubscriptionError}
 * (docs/DESIGN.md "Failures of the subscription"; docs/operations.md "Health").
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
  private loop: Promise<void> | null = null;
  private subscriptionFailure: ProjectorFailure | null = null;
  private applyFailure: ProjectorFailure | null = null;
  /** Epoch ms. */
  private failureLoggedAt = 0;
  /** Set: the projector no longer runs. */
  private fatalFailure: ProjectorFailure | null = null;
  private wakeSleepers: Array<() => void> = [];

  constructor(
    private readonly eventStore: EventStore,
    private readonly store: ProjectionStore,
    private readonly logger: ProjectorLogger,
    private readonly options: ProjectorOptions = {},
  ) {}

  get checkpoint(): LogPosition {
    return this.position;
  }

  /** Since creation, redeliveries included. */
  get eventsApplied(): number {
    return this.applied;
  }

  get live(): boolean {
    return this.health().state === 'live';
  }

  /** The failure: the subscription's, else the failing event's. */
  health(): ProjectorHealth {
    if (this.fatalFailure) return { state: 'failed', checkpoint: this.position, failure: this.fatalFailure };
    const failure = this.subscriptionFailure ?? this.applyFailure;
    const state = !this.running ? 'stopped' : failure ? 'failing' : 'live';
    return { state, checkpoint: this.position, failure };
  }

  /**
   * Up to the current head once (admin CLI, tests, the API's start); stops before an event still failing after `catchUpAttempts`,
   * left to the live subscription. An empty store is first built by stream where it can ({@link buildEmptyStore}).
   */
  async catchUp(): Promise<number> {
    this.position = laterPosition(this.position, await this.store.checkpoint());
    const ahead = await this.aheadOfLog();
    if (ahead) throw ahead;
    // Larger than live: fewer transactions, and a trainee's events in one batch are folded and rendered once.
    const batchSize = this.options.batchSize ?? CATCH_UP_BATCH_SIZE;
    if (this.position === 0) {
      const warn = (message: string, context: Record<string, unknown>) => this.logger.warn(message, context);
      this.applied += (await buildEmptyStore(this.eventStore, this.store, { batchSize, shouldStop: () => this.stopped, warn })) ?? 0;
      this.position = laterPosition(this.position, await this.store.checkpoint());
    }
    for (;;) {
      const events = await this.eventStore.readAll({ fromPosition: this.position, maxCount: batchSize, filter: PROJECTED_STREAMS });
      if (events.length === 0 || this.stopped) return this.position;
      if (!(await this.applyEvents(events, this.options.catchUpAttempts ?? 3))) return this.position;
    }
  }

  /**
   * Returns once subscribed; starts the store's pending drops in the background. A checkpoint beyond the log's head stops it for good
   * at once ({@link CheckpointAheadOfLog}: failed and logged), subscribing to nothing.
   */
  async start(): Promise<void> {
    this.position = laterPosition(this.position, await this.store.checkpoint());
    this.stopped = false;
    this.running = true;
    const ahead = await this.aheadOfLog();
    if (ahead) return this.endForGood(ahead, 0);
    const sub = this.eventStore.subscribeToAll({ fromPosition: this.position, filter: PROJECTED_STREAMS });
    this.subscription = sub;
    this.loop = this.consume(sub);
    // An old store a swap left to drop: finished in the background, in slices.
    this.store
      .dropPendingStores?.()
      .catch((err: unknown) => this.logger.warn('dropping an old store failed', { error: errorMessage(err) }));
  }

  /** The error to stop on when the checkpoint is beyond the log's head; null when it is not. */
  private async aheadOfLog(): Promise<CheckpointAheadOfLog | null> {
    if (this.position === LOG_START) return null;
    const head = await this.eventStore.headPosition();
    return this.position > head ? new CheckpointAheadOfLog('the projector', this.position, head, PROJECTIONS_REBUILD) : null;
  }

  /** On its error or end, resubscribes from the checkpoint with back-off. */
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
          // While an event fails, reading waits for it: nothing piles up behind it in memory.
          if (this.buffer.length >= (this.options.batchSize ?? 1000) || this.applyFailure) await this.flush();
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
        this.options.onHealth?.(this.health());
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

  /**
   * Applies what is buffered, records the failure (`failed`), logs it and tells `onFatal`; not for {@link CheckpointAheadOfLog}, which a
   * restart meets again: its failure carries `code` {@link CHECKPOINT_AHEAD_OF_LOG}, for `/readyz` and the metrics to say it.
   */
  private async endForGood(err: PermanentSubscriptionError, attempts: number): Promise<void> {
    await this.flush();
    const since = this.subscriptionFailure?.since ?? this.now().toISOString();
    const ahead = err instanceof CheckpointAheadOfLog;
    this.fatalFailure = {
      kind: 'subscription',
      message: errorMessage(err),
      attempts,
      since,
      ...(ahead ? { code: CHECKPOINT_AHEAD_OF_LOG } : {}),
    };
    this.subscriptionFailure = null;
    this.options.onHealth?.(this.health());
    this.logger.error('projector subscription cannot go on; the projector has stopped', {
      error: errorMessage(err),
      checkpoint: this.position,
    });
    if (ahead) return;
    try {
      this.options.onFatal?.(err);
    } catch (fatalError) {
      this.logger.warn('onFatal failed', { error: errorMessage(fatalError) });
    }
  }

  private subscriptionRecovered(): void {
    this.logger.warn('projector subscription recovered', { checkpoint: this.position });
    this.subscriptionFailure = null;
    this.options.onHealth?.(this.health());
  }

  /** Batches apply strictly one after another. */
  private flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.buffer;
    this.buffer = [];
    if (batch.length > 0) this.chain = this.chain.then(() => this.applyEvents(batch).then(() => undefined));
    return this.chain;
  }

  /** Events at or below the checkpoint skipped; on failure event by event. False when stopped, or still failing after `giveUpAfter`. */
  private async applyEvents(events: RecordedEvent[], giveUpAfter = Infinity): Promise<boolean> {
    const batch = events.filter((e) => e.position > this.position);
    if (batch.length === 0) return true;
    if (!this.applyFailure) {
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
    for (const event of batch) if (!(await this.applyOne(event, giveUpAfter))) return false;
    return true;
  }

  /** Retrying with back-off while it fails; false when stopped first, or after `giveUpAfter` failed attempts. */
  private async applyOne(event: RecordedEvent, giveUpAfter: number): Promise<boolean> {
    let delay = this.options.retryDelayMs ?? 100;
    for (let attempts = 1; ; attempts++) {
      if (this.stopped) return false;
      try {
        await this.timed([event], () => this.store.applyBatch([event]));
        this.applied += 1;
        this.notifyApplied([event]);
        this.advance(event.position);
        this.recovered(event);
        return true;
      } catch (err) {
        this.failedAt(event, err);
        if (attempts >= giveUpAfter) return false;
        await this.sleep(delay);
        delay = Math.min(delay * 2, this.options.maxRetryDelayMs ?? 5000);
      }
    }
  }

  /** Attempts counted across catch-up and live; logged on the first and at most once a minute. */
  private failedAt(event: RecordedEvent, err: unknown): void {
    const same = this.applyFailure?.position === event.position ? this.applyFailure : null;
    const code = (err as { code?: unknown } | null)?.code;
    this.applyFailure = {
      kind: 'apply',
      message: errorMessage(err),
      ...(typeof code === 'string' ? { code } : {}),
      ...this.describe(event),
      attempts: (same?.attempts ?? 0) + 1,
      since: same?.since ?? this.now().toISOString(),
    };
    this.options.onHealth?.(this.health());
    const now = this.now().getTime();
    if (same && now - this.failureLoggedAt < FAILURE_LOG_INTERVAL_MS) return;
    this.failureLoggedAt = now;
    this.logger.error('projection of an event failed; retrying it, nothing after it is projected until it applies', {
      ...this.describe(event),
      error: errorMessage(err),
      attempts: this.applyFailure.attempts,
      since: this.applyFailure.since,
    });
  }

  /** Its failure, if any, is over: logged at warn with its attempts. */
  private recovered(event: RecordedEvent): void {
    const failure = this.applyFailure;
    if (!failure) return;
    this.applyFailure = null;
    this.options.onHealth?.(this.health());
    if (failure.position !== event.position) return;
    this.logger.warn('projection of an event that failed succeeded; going on', {
      ...this.describe(event),
      attempts: failure.attempts + 1,
      since: failure.since,
    });
  }

  private async timed(events: readonly RecordedEvent[], store: () => Promise<void>): Promise<void> {
    const started = process.hrtime.bigint();
    await store();
    this.options.onBatchStored?.(events, Number(process.hrtime.bigint() - started) / 1e9);
  }

  /** Before any writer waiting for these events is released. */
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

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  /** Or less when `stop()` is called. */
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

  /** Positions of streams the projector does not read resolve when a later event applies, or at the timeout. */
  waitFor(position: LogPosition, timeoutMs = 10_000): Promise<boolean> {
    return this.waiters.wait(position, this.position, timeoutMs);
  }

  /** After applying what is buffered; a failing event is left for the next start. */
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

/** At most 500 characters: a store's message can quote a whole document. */
function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 500 ? `${message.slice(0, 497)}...` : message;
}
