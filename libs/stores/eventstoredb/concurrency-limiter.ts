import { EventStoreUnavailableError } from '@app/event-sourcing';

/**
 * A small FIFO concurrency limiter (counting semaphore) for the EventStoreDB adapter's calls.
 *
 * Why: every call of one client shares one HTTP/2 connection, and the server lets a connection
 * carry only so many concurrent streams (100 by default); past that, calls wait inside gRPC with no
 * bound. Capping the adapter's appends (32) and its reads (32) in flight keeps below it, and the
 * rest wait their turn in arrival order, in a queue that is bounded: when it is full a call fails
 * at once with {@link EventStoreUnavailableError} (the API answers 503) instead of piling up
 * without bound in memory.
 */

/**
 * Runs async tasks with at most `maxConcurrent` in flight; further tasks wait in a FIFO queue and
 * start, in the order they were submitted, as running ones settle (fulfilled or rejected).
 */
export class ConcurrencyLimiter {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  /**
   * `maxConcurrent`: tasks allowed in flight at once, an integer ≥ 1; `maxQueued`: tasks allowed to
   * wait, an integer ≥ 0 (default: no bound). RangeError otherwise.
   */
  constructor(
    readonly maxConcurrent: number,
    readonly maxQueued = Infinity,
  ) {
    if (!Number.isInteger(maxConcurrent) || maxConcurrent < 1) {
      throw new RangeError(`maxConcurrent must be an integer ≥ 1, got ${maxConcurrent}`);
    }
    if (maxQueued !== Infinity && (!Number.isInteger(maxQueued) || maxQueued < 0)) {
      throw new RangeError(`maxQueued must be an integer ≥ 0, got ${maxQueued}`);
    }
  }

  /** Tasks currently running. */
  get active(): number {
    return this.running;
  }

  /** Tasks waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /**
   * Runs `task` when a slot is free and settles as it does (a synchronous throw becomes a
   * rejection). The slot is released however the task ends. Rejects at once with
   * {@link EventStoreUnavailableError}, without running `task`, when `maxQueued` tasks already wait.
   */
  async run<T>(task: () => Promise<T> | T): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.running < this.maxConcurrent) {
      this.running++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.maxQueued) {
      return Promise.reject(new EventStoreUnavailableError(`the event store is busy: ${this.waiting.length} calls are waiting already`));
    }
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    // Hand the slot straight to the next waiter: `running` stays the same, so no later caller of
    // run() can overtake the queue between this release and the waiter resuming.
    if (next !== undefined) next();
    else this.running--;
  }
}
