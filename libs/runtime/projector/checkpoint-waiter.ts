import { laterPosition, LOG_START, type LogPosition, type ProjectionWaiter } from '@app/event-sourcing';
import type { ProjectionStore } from './projection-store.port';

interface Waiter {
  position: LogPosition;
  deadline: number;
  resolve: (reached: boolean) => void;
}

/**
 * How {@link CheckpointWaiter} polls: from `minIntervalMs` (default 5), doubling while the checkpoint
 * stands still, up to `maxIntervalMs` (default 100); a wait gives up after `timeoutMs` (default 10 s).
 */
export interface CheckpointWaiterOptions {
  minIntervalMs?: number;
  maxIntervalMs?: number;
  timeoutMs?: number;
}

/**
 * Read-your-writes when the projector runs in another process (docs/DESIGN.md "Read-your-writes"):
 * a writer waits until the read store's checkpoint reaches its events' position, for at most
 * `timeoutMs` (default 10 s). Resolves true when reached, false on time-out (the write itself is
 * durable either way). One poller serves every waiting writer, so the reads of the store do not
 * grow with the number of writers waiting: it reads the checkpoint once per round, every
 * `minIntervalMs` while the checkpoint moves, backing off to `maxIntervalMs` while it does not, and
 * stops when nobody waits. A failed read counts as a round without progress.
 */
export class CheckpointWaiter implements ProjectionWaiter {
  private last = LOG_START;
  private waiters: Waiter[] = [];
  private polling = false;
  private interval: number;
  private wakeUp: (() => void) | null = null;

  constructor(
    private readonly store: Pick<ProjectionStore, 'checkpoint'>,
    private readonly options: CheckpointWaiterOptions = {},
  ) {
    this.interval = options.minIntervalMs ?? 5;
  }

  /** Resolves true once the checkpoint reaches `position`, false after `timeoutMs` (default: the constructor's). */
  waitFor(position: LogPosition, timeoutMs = this.options.timeoutMs ?? 10_000): Promise<boolean> {
    if (position <= this.last) return Promise.resolve(true);
    return new Promise((resolve) => {
      this.waiters.push({ position, deadline: Date.now() + timeoutMs, resolve });
      // A new write is likely to be applied soon: poll at the shortest interval again.
      this.interval = this.options.minIntervalMs ?? 5;
      this.wakeUp?.();
      if (!this.polling) void this.poll();
    });
  }

  private async poll(): Promise<void> {
    this.polling = true;
    try {
      while (this.waiters.length > 0) {
        const before = this.last;
        try {
          this.last = laterPosition(this.last, await this.store.checkpoint());
        } catch {
          // The store did not answer: a round without progress; the writers' deadlines still hold.
        }
        const now = Date.now();
        const still: Waiter[] = [];
        for (const w of this.waiters) {
          if (w.position <= this.last) w.resolve(true);
          else if (now >= w.deadline) w.resolve(false);
          else still.push(w);
        }
        this.waiters = still;
        if (still.length === 0) break;
        const min = this.options.minIntervalMs ?? 5;
        this.interval = this.last > before ? min : Math.min(this.interval * 2, this.options.maxIntervalMs ?? 100);
        await this.sleep(Math.min(this.interval, Math.max(0, Math.min(...still.map((w) => w.deadline)) - now)));
      }
    } finally {
      this.polling = false;
    }
  }

  /** Waits `ms`, or less when a new waiter arrives. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }
}
