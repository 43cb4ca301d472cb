/** Writers waiting for the projection to reach their position (docs/DESIGN.md "Read-your-writes"): settled by {@link advance} or timer. */
import type { LogPosition } from '@app/event-sourcing';

export class PositionWaiters {
  private waiters: { position: LogPosition; settle: (reached: boolean) => void }[] = [];

  /** True at once when `position` ≤ `current`, else when {@link advance} reaches it; false after `timeoutMs`. */
  wait(position: LogPosition, current: LogPosition, timeoutMs: number): Promise<boolean> {
    if (position <= current) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = {
        position,
        settle: (reached: boolean) => {
          clearTimeout(timer);
          resolve(reached);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  advance(position: LogPosition): void {
    if (this.waiters.length === 0) return;
    const still: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (w.position <= position) w.settle(true);
      else still.push(w);
    }
    this.waiters = still;
  }

  /** The projector stopped or closed. */
  releaseAll(reached: boolean): void {
    const all = this.waiters;
    this.waiters = [];
    for (const w of all) w.settle(reached);
  }
}
