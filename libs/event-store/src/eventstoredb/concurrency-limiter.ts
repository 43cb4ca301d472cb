/**
 * A small FIFO concurrency limiter (counting semaphore) for the EventStoreDB adapter's appends.
 *
 * Why: `@eventstore/db-client` multiplexes every append of one client over a single gRPC
 * `BatchAppend` stream (dist/streams/appendToStream/batchAppend.js), and that stream stalls once
 * roughly a hundred appends are outstanding on one connection. Capping appends in flight (32 by
 * default in the adapter) keeps well below that; the rest wait their turn in arrival order.
 */

/**
 * Runs async tasks with at most `maxConcurrent` in flight; further tasks wait in a FIFO queue and
 * start, in the order they were submitted, as running ones settle (fulfilled or rejected).
 */
export class ConcurrencyLimiter {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  /** `maxConcurrent`: tasks allowed in flight at once, an integer ≥ 1 (RangeError otherwise). */
  constructor(readonly maxConcurrent: number) {
    if (!Number.isInteger(maxConcurrent) || maxConcurrent < 1) {
      throw new RangeError(`maxConcurrent must be an integer ≥ 1, got ${maxConcurrent}`);
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
   * rejection). The slot is released however the task ends.
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
