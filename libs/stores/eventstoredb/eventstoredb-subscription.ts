/**
 * The adapter's catch-up subscription to `$all` (port `subscribeToAll`), resilient to drops; failures and stalls as docs/DESIGN.md
 * "Failures of the subscription" says. Each client `subscribeToAll` call is one attempt; after a failure or an end the next starts,
 * after a backoff that any delivery resets, from the last yielded event's position or a later server checkpoint. Checkpoints (sent
 * while a server filter skips events) travel in order with the events through the client's readable and are adopted only when the
 * loop reaches them, so a drop after a long filtered run does not rescan it. The server sends each event after the position given in
 * its `{commit, prepare}` order (KurrentDB `Enumerator.AllSubscriptionFiltered.cs`, `CatchUp`): from a yielded event's position the
 * next event; from a catch-up checkpoint, `{commit: X, prepare: 0}` where X starts a page it read and filtered whole, the record at
 * X again, filtered out again. Kept whatever happens: position order, no event at or below the last
 * yielded again, the port's filter and system-event rule on each event. Not guarded: an event at the resume position scavenged while
 * away (this service never deletes). Ending (`unsubscribe()`, the store's `close()`, leaving a `for await`) resolves a pending `next()`
 * done at once.
 */
import type { AllStreamResolvedEvent, AllStreamSubscription, Filter, Position, ReadPosition } from '@eventstore/db-client';
import { PermanentSubscriptionError, type LogPosition, type RecordedEvent, type Subscription } from '@app/event-sourcing';
import { BackoffOptions, computeBackoffMs } from './backoff';
import { classifySubscriptionError } from './errors';
import { buildServerFilter, NormalisedFilter } from './filters';
import { SubscriptionCursor } from './subscription-cursor';
import { assessStall, DEFAULT_STALL_AFTER_MS, silenceMs } from './subscription-watchdog';

/** A server checkpoint every 5 × 32 events the server considers. */
const CHECKPOINT_INTERVAL = 5;

export interface SubscriptionSource {
  subscribe(fromPosition: ReadPosition, filter: Filter): AllStreamSubscription;
  /** Called once, when the subscription ends. */
  forget(subscription: EventStoreDbSubscription): void;
  /** The newest matching event's position (0: none in the log), or null when none among the newest records looked at. */
  matchingHead(filter: NormalisedFilter | null): Promise<number | null>;
}

export interface SubscriptionLogger {
  warn(message: string, context?: Record<string, unknown>): void;
  error(message: string, context?: Record<string, unknown>): void;
}

export const DEFAULT_MAX_UNKNOWN_FAILURES = 10;

export interface SubscriptionSettings {
  backoff?: BackoffOptions;
  /** Of the backoff jitter, in [0, 1). */
  random?: () => number;
  logger?: SubscriptionLogger;
  /** Silence (ms) of a waiting consumer before the log's head is checked; 0 turns the check off. */
  stallAfterMs?: number;
  /** Unknown failures in a row, nothing delivered between, that end the subscription. */
  maxUnknownFailures?: number;
  /** Of the stall check, in ms. */
  now?: () => number;
}

/** Carried in order with the events through the client subscription. */
class CheckpointMarker {
  constructor(readonly position: Position) {}
}

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };
const STOPPED = Symbol('stopped');
const ignore = (): void => undefined;

/** Opens its first server subscription on the first `next()`. */
export class EventStoreDbSubscription implements Subscription {
  /** Last yielded position and resume point. */
  private readonly cursor: SubscriptionCursor;
  private stopped = false;
  private current: AllStreamSubscription | null = null;
  private wakeFromPause: (() => void) | null = null;
  private readonly serverFilter: Filter;
  private readonly events: AsyncGenerator<RecordedEvent, void, undefined>;
  private readonly stopSignal: Promise<typeof STOPPED>;
  private signalStop!: () => void;
  private readonly filter: NormalisedFilter | null;
  private readonly now: () => number;
  private waitingSinceMs: number | null = null;
  private lastDeliveryMs = 0;
  private subscribedAtMs = 0;
  private stallTimer: NodeJS.Timeout | null = null;
  private checkingStall = false;
  /** Set when the stall check ends the server subscription: its end is then no failure. */
  private stalled = false;

  /** `fromPosition` exclusive (0: the start); `filter` null: every non-system event. RangeError for a bad `fromPosition`. */
  constructor(
    private readonly source: SubscriptionSource,
    fromPosition: LogPosition,
    filter: NormalisedFilter | null,
    private readonly settings: SubscriptionSettings = {},
  ) {
    this.cursor = new SubscriptionCursor(fromPosition, filter);
    this.filter = filter;
    this.now = settings.now ?? Date.now;
    this.serverFilter = buildServerFilter(filter, {
      checkpointInterval: CHECKPOINT_INTERVAL,
      // Runs inside the client subscription's transform, in stream order: pushing the marker into
      // that same readable keeps it behind every event the server sent before the checkpoint.
      checkpointReached: (subscription, position) => {
        subscription.push(new CheckpointMarker(position));
      },
    });
    this.stopSignal = new Promise((resolve) => {
      this.signalStop = () => resolve(STOPPED);
    });
    this.events = this.run();
  }

  /** `return()` (leaving a `for await`) unsubscribes. */
  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    return {
      next: () => this.next(),
      return: async () => {
        await this.unsubscribe();
        return DONE;
      },
    };
  }

  /** Idempotent; a pending `next()` resolves done. */
  async unsubscribe(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.signalStop();
    if (this.stallTimer !== null) clearInterval(this.stallTimer);
    this.wakeFromPause?.();
    const current = this.current;
    this.current = null;
    if (current !== null) release(current);
    this.source.forget(this);
    // Lets the generator run its cleanup if it is parked at a `yield`; queued behind a running step.
    this.events.return(undefined).catch(ignore);
  }

  private async next(): Promise<IteratorResult<RecordedEvent>> {
    if (this.stopped) return DONE;
    let result: IteratorResult<RecordedEvent, void> | typeof STOPPED;
    this.waitingSinceMs = this.now();
    try {
      result = await Promise.race([this.events.next(), this.stopSignal]);
    } catch (error) {
      await this.unsubscribe();
      throw error;
    } finally {
      this.waitingSinceMs = null;
    }
    if (result === STOPPED || this.stopped) return DONE;
    if (result.done === true) {
      await this.unsubscribe();
      return DONE;
    }
    return { done: false, value: result.value };
  }

  private async *run(): AsyncGenerator<RecordedEvent, void, undefined> {
    this.startStallCheck();
    let failures = 0;
    let unknownFailures = 0;
    while (!this.stopped) {
      const subscription = this.source.subscribe(this.cursor.resumeFrom, this.serverFilter);
      // Errors reach the loop through the iterator; this keeps a late 'error' from becoming an uncaught exception.
      subscription.on('error', ignore);
      this.current = subscription;
      this.subscribedAtMs = this.now();
      this.stalled = false;
      let failed = false;
      let failure: unknown;
      try {
        for await (const item of subscription as AsyncIterable<unknown>) {
          if (this.stopped) return;
          this.lastDeliveryMs = this.now();
          failures = 0;
          unknownFailures = 0;
          if (item instanceof CheckpointMarker) {
            this.cursor.adoptCheckpoint(item.position);
            continue;
          }
          const recorded = this.cursor.accept(item as AllStreamResolvedEvent);
          if (recorded !== null) yield recorded;
          if (this.stopped) return;
        }
      } catch (error) {
        failed = true;
        failure = error;
      } finally {
        if (this.current === subscription) this.current = null;
        release(subscription);
      }
      if (this.stopped) return;
      const delayMs = computeBackoffMs(failures, this.settings.backoff, this.settings.random);
      if (this.stalled) {
        // Logged by the stall check; the server subscription was ended on purpose.
      } else if (!failed) {
        this.settings.logger?.warn('EventStoreDB subscription ended by the server; resubscribing', this.retryContext(failures, delayMs));
      } else {
        const kind = classifySubscriptionError(failure);
        if (kind === 'unknown') unknownFailures++;
        const maxUnknown = this.settings.maxUnknownFailures ?? DEFAULT_MAX_UNKNOWN_FAILURES;
        if (kind === 'permanent' || unknownFailures >= maxUnknown) {
          const why = kind === 'permanent' ? 'cannot go on' : `failed ${unknownFailures} times in a row with nothing delivered`;
          throw new PermanentSubscriptionError(`EventStoreDB subscription ${why}: ${describeError(failure)}`, { cause: failure });
        }
        const log = kind === 'unknown' ? this.settings.logger?.error : this.settings.logger?.warn;
        log?.call(this.settings.logger, 'EventStoreDB subscription failed; resubscribing', {
          ...this.retryContext(failures, delayMs),
          error: describeError(failure),
          kind,
        });
      }
      await this.pause(delayMs);
      failures++;
    }
  }

  private retryContext(failures: number, delayMs: number): Record<string, unknown> {
    return { attempt: failures + 1, retry_in_ms: delayMs, resume_after: this.cursor.reached };
  }

  /** Every half `stallAfterMs`; the timer does not keep the process alive. */
  private startStallCheck(): void {
    const stallAfterMs = this.settings.stallAfterMs ?? DEFAULT_STALL_AFTER_MS;
    if (stallAfterMs <= 0 || this.stallTimer !== null) return;
    this.stallTimer = setInterval(() => void this.checkForStall(stallAfterMs), Math.max(1, Math.floor(stallAfterMs / 2)));
    this.stallTimer.unref();
  }

  /** Reads the head only once the consumer has waited in silence long enough; ends a stalled server subscription. */
  private async checkForStall(stallAfterMs: number): Promise<void> {
    if (this.checkingStall || this.stopped || this.current === null || silenceMs(this.times()) < stallAfterMs) return;
    this.checkingStall = true;
    try {
      const matchingHead = await this.source.matchingHead(this.filter);
      const current = this.current;
      const verdict = assessStall({ ...this.times(), reached: this.cursor.reached, matchingHead }, stallAfterMs);
      if (!verdict.stalled || this.stopped || current === null) return;
      this.settings.logger?.warn('EventStoreDB subscription stalled: nothing delivered while the log has more; resubscribing', {
        silent_ms: verdict.silentMs,
        reached: verdict.reached,
        matching_head: verdict.matchingHead,
      });
      this.stalled = true;
      release(current);
    } catch (error) {
      this.settings.logger?.warn('EventStoreDB subscription: the stall check could not read the head', { error: describeError(error) });
    } finally {
      this.checkingStall = false;
    }
  }

  private times(): { nowMs: number; waitingSinceMs: number | null; lastDeliveryMs: number; subscribedAtMs: number } {
    return {
      nowMs: this.now(),
      waitingSinceMs: this.waitingSinceMs,
      lastDeliveryMs: this.lastDeliveryMs,
      subscribedAtMs: this.subscribedAtMs,
    };
  }

  private pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wakeFromPause = () => {
        this.wakeFromPause = null;
        done();
      };
    });
  }
}

/** For logs (the client's errors keep the name "Error"). */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const name = error.name === 'Error' && error.constructor.name !== 'Error' ? error.constructor.name : error.name;
  return error.message === '' ? name : `${name}: ${error.message}`;
}

/** Its iterator finishes at once and the gRPC call is cancelled. */
function release(subscription: AllStreamSubscription): void {
  subscription.destroy();
  subscription.unsubscribe().catch(ignore);
}
