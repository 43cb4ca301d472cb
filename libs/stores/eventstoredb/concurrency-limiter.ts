import { EventStoreUnavailableError } from '@app/event-sourcing';

/**
 * FIFO concurrency limiter for the adapter's calls: one client's calls share one HTTP/2 connection, whose server allows ~100
 * concurrent streams before calls wait in gRPC without bound. The queue is bounded: full, a call fails at once with
 * {@link EventStoreUnavailableError} (503) rather than pile up in memory.
 */

export class ConcurrencyLimiter {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  /** `maxConcurrent` an integer ≥ 1, `maxQueued` ≥ 0; RangeError otherwise. */
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

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Settles as `task` does, its slot released however it ends; {@link EventStoreUnavailableError}, unrun, when the queue is full. */
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
    // Hand the slot straight to the next waiter: no later caller of run() can overtake the queue meanwhile.
    if (next !== undefined) next();
    else this.running--;
  }
}
