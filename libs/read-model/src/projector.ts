import type { EventFilter, EventStore, RecordedEvent, Subscription } from '@app/event-store';
import { PROVIDER_STREAM_PREFIX, TRAINEE_STREAM_PREFIX } from '@app/domain';
import type { ProjectionStore } from './read-model.port';

/** The streams the projections read. */
export const PROJECTED_STREAMS: EventFilter = { streamPrefixes: [TRAINEE_STREAM_PREFIX, PROVIDER_STREAM_PREFIX] };

export interface ProjectorLogger {
  error(message: string, context?: Record<string, unknown>): void;
  warn(message: string, context?: Record<string, unknown>): void;
}

interface Waiter {
  position: number;
  resolve: () => void;
}

/**
 * Keeps the read models up to date from the global event log, in position order, from the
 * stored checkpoint: catch-up, then live (docs/DESIGN.md "The shape"). Events that arrive together are
 * applied in one batch (one transaction on SQLite). A failing batch is retried with backoff, never
 * skipped; the error is logged. `waitFor(position)` lets a writer answer only once its events are
 * projected (read-your-writes, docs/DESIGN.md property 1).
 */
export class Projector {
  private position = 0;
  private subscription: Subscription | null = null;
  private buffer: RecordedEvent[] = [];
  private scheduled = false;
  private chain: Promise<void> = Promise.resolve();
  private waiters: Waiter[] = [];
  private stopped = false;
  private applied = 0;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly eventStore: EventStore,
    private readonly store: ProjectionStore,
    private readonly logger: ProjectorLogger,
    private readonly options: { batchSize?: number; retryDelayMs?: number } = {},
  ) {}

  /** The position of the last event applied. */
  get checkpoint(): number {
    return this.position;
  }

  /** Events handed to the store by this projector since it was created (redeliveries included). */
  get eventsApplied(): number {
    return this.applied;
  }

  /** True between `start()` and `stop()`. */
  get live(): boolean {
    return this.subscription !== null && !this.stopped;
  }

  /** Applies everything up to the current head once and returns the checkpoint (admin CLI, tests). */
  async catchUp(): Promise<number> {
    this.position = Math.max(this.position, await this.store.checkpoint());
    const batchSize = this.options.batchSize ?? 1000;
    for (;;) {
      const events = await this.eventStore.readAll({ fromPosition: this.position, maxCount: batchSize, filter: PROJECTED_STREAMS });
      if (events.length === 0) return this.position;
      await this.store.applyBatch(events);
      this.applied += events.length;
      this.advance(events[events.length - 1].position);
    }
  }

  /** Starts the live subscription from the stored checkpoint; returns once subscribed. */
  async start(): Promise<void> {
    this.position = await this.store.checkpoint();
    this.subscription = this.eventStore.subscribeToAll({ fromPosition: this.position, filter: PROJECTED_STREAMS });
    const sub = this.subscription;
    this.loop = (async () => {
      try {
        for await (const event of sub) {
          if (this.stopped) break;
          this.buffer.push(event);
          if (this.buffer.length >= (this.options.batchSize ?? 1000)) await this.flush();
          else if (!this.scheduled) {
            this.scheduled = true;
            setImmediate(() => void this.flush());
          }
        }
      } catch (err) {
        this.logger.error('projector subscription failed', { error: String(err) });
      }
    })();
  }

  /** Hands the buffered events to the apply chain, which applies batches strictly one after another. */
  private flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.buffer;
    this.buffer = [];
    if (batch.length > 0) this.chain = this.chain.then(() => this.applyWithRetry(batch));
    return this.chain;
  }

  private async applyWithRetry(batch: RecordedEvent[]): Promise<void> {
    let delay = this.options.retryDelayMs ?? 100;
    for (;;) {
      try {
        await this.store.applyBatch(batch);
        this.applied += batch.length;
        this.advance(batch[batch.length - 1].position);
        return;
      } catch (err) {
        this.logger.error('projection batch failed; retrying', { error: String(err), from: batch[0].position });
        if (this.stopped) return;
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 5000);
      }
    }
  }

  private advance(position: number): void {
    if (position > this.position) this.position = position;
    if (this.waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const w of this.waiters) {
      if (w.position <= this.position) w.resolve();
      else still.push(w);
    }
    this.waiters = still;
  }

  /**
   * Resolves true once every event up to `position` is applied, or false after `timeoutMs`
   * (default 10 s). Positions of streams the projector does not read resolve when a later event
   * is applied or at the timeout.
   */
  waitFor(position: number, timeoutMs = 10_000): Promise<boolean> {
    if (position <= this.position) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        this.logger.warn('projection did not reach a written position in time', { position, checkpoint: this.position });
        resolve(false);
      }, timeoutMs);
      const waiter: Waiter = {
        position,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      this.waiters.push(waiter);
    });
  }

  /** Stops the subscription after applying what it has buffered. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.subscription?.unsubscribe();
    await this.loop;
    await this.flush();
    for (const w of this.waiters) w.resolve();
    this.waiters = [];
  }
}
