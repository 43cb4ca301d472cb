/**
 * The catch-up subscription of the EventStoreDB adapter (port: `subscribeToAll`, docs/DESIGN.md "The
 * event store port": "catch-up, then live"), made resilient to dropped connections.
 *
 * One client `subscribeToAll` call (gRPC `Read` with subscription options) is one attempt. When it
 * fails or ends, the subscription opens a new one after a backoff ({@link computeBackoffMs}: 100 ms
 * doubling to 5 s, with jitter; reset once the server delivers again), from its resume point:
 *
 * - the `$all` position of the last event it yielded (initially the caller's checkpoint), or
 * - a later server checkpoint. With a server-side filter the server sends checkpoints while it
 *   scans non-matching events (`checkpointReached`); the adapter forwards each one in order with the
 *   events, through the client subscription's own readable buffer, and adopts it only when its loop
 *   reaches it, i.e. after every event before it has been yielded. A drop after a long run of
 *   non-matching events therefore does not rescan them. The server starts a subscription from a
 *   position *after* the first event at or after it (EventStore/EventStore
 *   `src/EventStore.Core/Services/Transport/Enumerators/Enumerator.AllSubscriptionFiltered.cs`,
 *   `Subscribe`): from the last yielded event that skips exactly that event; from a checkpoint it
 *   skips an event the server already considered and filtered out.
 *
 * Guarantees kept here, whatever the server or network does: events come in position order; no
 * event at or below the last yielded position is ever yielded again (deduplication after a
 * resubscription), and the port's filter and the system-event rule are applied to each event.
 * Not guarded against: an event at the resume position deleted and scavenged while the subscription
 * was away (the server would then skip the next event instead); this service never deletes.
 *
 * Failures (docs/DESIGN.md "Failures of the subscription"; {@link classifySubscriptionError}): each
 * one is logged with what failed, the attempt and the delay. A dropped connection is retried for as
 * long as it takes; an unknown error is retried too, but `maxUnknownFailures` of them in a row with
 * nothing delivered between end the subscription; a permanent error ends it at once. Ending rejects
 * the pending `next()` with a {@link PermanentSubscriptionError} (its `cause` is the client's
 * error), which the projector answers by stopping the process.
 *
 * Stalls: a server subscription can stay open and deliver nothing. While the consumer waits in
 * `next()` and nothing has come for `stallAfterMs`, the subscription reads the position of the
 * newest matching event in the log; beyond the position reached, it is stalled ({@link assessStall}),
 * logged, and opened again from the position reached.
 *
 * `unsubscribe()`, `close()` of the store, or leaving a `for await` ends the subscription: a pending
 * `next()` resolves `{ done: true }` at once and nothing is delivered afterwards.
 */
import type { AllStreamResolvedEvent, AllStreamSubscription, Filter, Position, ReadPosition } from '@eventstore/db-client';
import { PermanentSubscriptionError, type RecordedEvent, type Subscription } from '@app/event-sourcing';
import { BackoffOptions, computeBackoffMs } from './backoff';
import { classifySubscriptionError } from './errors';
import { buildServerFilter, NormalisedFilter } from './filters';
import { SubscriptionCursor } from './subscription-cursor';
import { assessStall, DEFAULT_STALL_AFTER_MS, silenceMs } from './subscription-watchdog';

/** Server checkpoint multiplier: a checkpoint every 5 × 32 events the server considers. */
const CHECKPOINT_INTERVAL = 5;

/** What a subscription needs from its store. */
export interface SubscriptionSource {
  /** Opens one client catch-up subscription to `$all` from `fromPosition` with `filter`. */
  subscribe(fromPosition: ReadPosition, filter: Filter): AllStreamSubscription;
  /** Called once when the subscription ends. */
  forget(subscription: EventStoreDbSubscription): void;
  /**
   * Port position of the newest event in the log that `filter` matches (0: none in the log), or
   * null when there is none among the newest records the source looks at.
   */
  matchingHead(filter: NormalisedFilter | null): Promise<number | null>;
}

/** Where the subscription reports its retries and stalls (the process's logger). */
export interface SubscriptionLogger {
  warn(message: string, context?: Record<string, unknown>): void;
  error(message: string, context?: Record<string, unknown>): void;
}

/** Default number of unknown failures in a row, nothing delivered between, that end a subscription. */
export const DEFAULT_MAX_UNKNOWN_FAILURES = 10;

/** Settings of {@link EventStoreDbSubscription}. */
export interface SubscriptionSettings {
  backoff?: BackoffOptions;
  /** Random source of the backoff jitter, in [0, 1). Default `Math.random`. */
  random?: () => number;
  /** Told of every resubscription and stall. Default: none (tests). */
  logger?: SubscriptionLogger;
  /** Silence (ms) of a waiting consumer after which the log's head is checked; default 30 000; 0 turns the check off. */
  stallAfterMs?: number;
  /** Unknown failures in a row, nothing delivered between, before the subscription ends (default 10). */
  maxUnknownFailures?: number;
  /** Clock of the stall check, in ms (default `Date.now`). */
  now?: () => number;
}

/** A server checkpoint, carried in order with the events through the client subscription. */
class CheckpointMarker {
  constructor(readonly position: Position) {}
}

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };
const STOPPED = Symbol('stopped');
const ignore = (): void => undefined;

/**
 * A resilient catch-up subscription to `$all` (see this module's doc). Created by
 * `EventStoreDbEventStore.subscribeToAll`; opens its first server subscription on the first `next()`.
 */
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
  /** Stall check state: since when the consumer waits, last delivery, current subscription's start. */
  private waitingSinceMs: number | null = null;
  private lastDeliveryMs = 0;
  private subscribedAtMs = 0;
  private stallTimer: NodeJS.Timeout | null = null;
  private checkingStall = false;
  /** Set when the stall check ends the current server subscription (its end is then not a failure). */
  private stalled = false;

  /**
   * `fromPosition`: exclusive port checkpoint (0 = from the start); `filter`: the normalised port
   * filter (null = every non-system event). Throws a RangeError for an invalid `fromPosition`.
   */
  constructor(
    private readonly source: SubscriptionSource,
    fromPosition: number,
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

  /** The subscription's iterator; `return()` (leaving a `for await`) unsubscribes. */
  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    return {
      next: () => this.next(),
      return: async () => {
        await this.unsubscribe();
        return DONE;
      },
    };
  }

  /** Ends the subscription: a pending `next()` resolves `{ done: true }`, nothing more is yielded. Idempotent. */
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
      // Errors reach the loop below through the iterator; this listener only keeps a late 'error'
      // (after the loop let go of the stream) from becoming an uncaught exception.
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

  /** Checks for a stall every half `stallAfterMs` (see the module doc); the timer does not keep the process alive. */
  private startStallCheck(): void {
    const stallAfterMs = this.settings.stallAfterMs ?? DEFAULT_STALL_AFTER_MS;
    if (stallAfterMs <= 0 || this.stallTimer !== null) return;
    this.stallTimer = setInterval(() => void this.checkForStall(stallAfterMs), Math.max(1, Math.floor(stallAfterMs / 2)));
    this.stallTimer.unref();
  }

  /** Reads the matching head only once the consumer has waited in silence long enough; ends a stalled server subscription. */
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

/** An error's class and message, for logs and the permanent error's message (the client's errors keep the name "Error"). */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const name = error.name === 'Error' && error.constructor.name !== 'Error' ? error.constructor.name : error.name;
  return error.message === '' ? name : `${name}: ${error.message}`;
}

/** Ends a client subscription: its iterator finishes at once, and the gRPC call is cancelled. */
function release(subscription: AllStreamSubscription): void {
  subscription.destroy();
  subscription.unsubscribe().catch(ignore);
}
