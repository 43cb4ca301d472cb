/**
 * Writers waiting until the projection has applied their events' position, so a write answers only
 * once a read sees it (docs/DESIGN.md "Read-your-writes"): the in-process {@link Projector} and the
 * embedded stores' projection thread keep their waiting writers here and call {@link advance} as
 * their checkpoint moves. No polling: a waiter is settled by the move that reaches it, or by its
 * timer.
 */
import type { LogPosition } from '@app/event-sourcing';

export class PositionWaiters {
  private waiters: { position: LogPosition; settle: (reached: boolean) => void }[] = [];

  /**
   * Resolves true at once when `position` ≤ `current` (the checkpoint now), else once {@link advance}
   * reaches it; false after `timeoutMs` ms.
   */
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

  /** The checkpoint moved to `position`: every waiter at or below it resolves true. */
  advance(position: LogPosition): void {
    if (this.waiters.length === 0) return;
    const still: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (w.position <= position) w.settle(true);
      else still.push(w);
    }
    this.waiters = still;
  }

  /** Settles every waiter with `reached` (the projector stopped or closed). */
  releaseAll(reached: boolean): void {
    const all = this.waiters;
    this.waiters = [];
    for (const w of all) w.settle(reached);
  }
}
