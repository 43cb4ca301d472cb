import { EventEmitter } from 'node:events';
import type { EventFilter, RecordedEvent, Subscription } from '@app/event-sourcing';

/**
 * Wakes live subscriptions of every {@link SqliteEventStore} of this process that shares a database
 * file. The event name is the store's key (resolved file path; unique for `:memory:`).
 */
export const appendSignals = new EventEmitter();
appendSignals.setMaxListeners(0);

/** What a subscription needs from its store. */
export interface SubscriptionSource {
  key: string;
  pollIntervalMs: number;
  /**
   * Up to one batch of matching events after `fromPosition`, read in one snapshot, and the
   * position up to which that snapshot holds no further match (`scannedTo` ≥ `fromPosition`).
   */
  readBatch(fromPosition: number, filter: EventFilter | undefined): { events: RecordedEvent[]; scannedTo: number };
  forget(subscription: SqliteSubscription): void;
}

/**
 * Catch-up then live subscription of {@link SqliteEventStore}. `next()` calls are served one after
 * the other, so concurrent callers never receive the same event twice.
 */
export class SqliteSubscription implements Subscription {
  /** Every matching event at or below this position has been read into the buffer. */
  private cursor: number;
  private buffer: RecordedEvent[] = [];
  private bufferIndex = 0;
  private ended = false;
  private signalled = false;
  private wake: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly onAppend = (): void => {
    this.signalled = true;
    this.resolveWait();
  };

  constructor(
    private readonly source: SubscriptionSource,
    fromPosition: number,
    private readonly filter: EventFilter | undefined,
  ) {
    this.cursor = fromPosition;
    appendSignals.on(source.key, this.onAppend);
  }

  /** The subscription's iterator; `return()` (a `break` out of `for await`) unsubscribes. */
  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    return {
      next: () => this.next(),
      return: async () => {
        await this.unsubscribe();
        return { done: true, value: undefined };
      },
    };
  }

  /** Ends the subscription: no more events, a pending `next()` resolves `{ done: true }`. */
  async unsubscribe(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    appendSignals.off(this.source.key, this.onAppend);
    this.source.forget(this);
    this.buffer = [];
    this.resolveWait();
  }

  private next(): Promise<IteratorResult<RecordedEvent>> {
    const result = this.queue.then(() => this.pull());
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async pull(): Promise<IteratorResult<RecordedEvent>> {
    for (;;) {
      if (this.ended) return { done: true, value: undefined };
      if (this.bufferIndex < this.buffer.length) {
        return { done: false, value: this.buffer[this.bufferIndex++] };
      }
      this.signalled = false;
      const { events, scannedTo } = this.source.readBatch(this.cursor, this.filter);
      this.buffer = events;
      this.bufferIndex = 0;
      this.cursor = Math.max(this.cursor, scannedTo);
      if (events.length === 0 && !this.signalled) await this.waitForSignal();
    }
  }

  private waitForSignal(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(() => this.resolveWait(), this.source.pollIntervalMs);
    });
  }

  private resolveWait(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
