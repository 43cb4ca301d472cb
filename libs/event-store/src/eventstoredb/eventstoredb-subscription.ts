/**
 * The catch-up subscription of the EventStoreDB adapter (port: `subscribeToAll`, docs/DESIGN.md event
 * store port: "catch-up, then live"), made resilient to dropped connections.
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
 * `unsubscribe()`, `close()` of the store, or leaving a `for await` ends the subscription: a pending
 * `next()` resolves `{ done: true }` at once and nothing is delivered afterwards. A permanent error
 * (see {@link isTransientSubscriptionError}) rejects the pending `next()` and ends it.
 */
import type { AllStreamResolvedEvent, AllStreamSubscription, Filter, Position, ReadPosition } from '@eventstore/db-client';
import type { RecordedEvent, Subscription } from '../event-store.port';
import { BackoffOptions, computeBackoffMs } from './backoff';
import { isTransientSubscriptionError } from './errors';
import { buildServerFilter, NormalisedFilter } from './filters';
import { SubscriptionCursor } from './subscription-cursor';

/** Server checkpoint multiplier: a checkpoint every 5 × 32 events the server considers. */
const CHECKPOINT_INTERVAL = 5;

/** What a subscription needs from its store. */
export interface SubscriptionSource {
  /** Opens one client catch-up subscription to `$all` from `fromPosition` with `filter`. */
  subscribe(fromPosition: ReadPosition, filter: Filter): AllStreamSubscription;
  /** Called once when the subscription ends. */
  forget(subscription: EventStoreDbSubscription): void;
}

/** Settings of {@link EventStoreDbSubscription}. */
export interface SubscriptionSettings {
  backoff?: BackoffOptions;
  /** Random source of the backoff jitter, in [0, 1). Default `Math.random`. */
  random?: () => number;
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
    try {
      result = await Promise.race([this.events.next(), this.stopSignal]);
    } catch (error) {
      await this.unsubscribe();
      throw error;
    }
    if (result === STOPPED || this.stopped) return DONE;
    if (result.done === true) {
      await this.unsubscribe();
      return DONE;
    }
    return { done: false, value: result.value };
  }

  private async *run(): AsyncGenerator<RecordedEvent, void, undefined> {
    let failures = 0;
    while (!this.stopped) {
      const subscription = this.source.subscribe(this.cursor.resumeFrom, this.serverFilter);
      // Errors reach the loop below through the iterator; this listener only keeps a late 'error'
      // (after the loop let go of the stream) from becoming an uncaught exception.
      subscription.on('error', ignore);
      this.current = subscription;
      let failed = false;
      let failure: unknown;
      try {
        for await (const item of subscription as AsyncIterable<unknown>) {
          if (this.stopped) return;
          failures = 0;
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
      if (failed && !isTransientSubscriptionError(failure)) throw failure;
      await this.pause(computeBackoffMs(failures, this.settings.backoff, this.settings.random));
      failures++;
    }
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

/** Ends a client subscription: its iterator finishes at once, and the gRPC call is cancelled. */
function release(subscription: AllStreamSubscription): void {
  subscription.destroy();
  subscription.unsubscribe().catch(ignore);
}
