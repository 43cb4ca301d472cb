/**
 * The fence between the live projector's batches and the drop of a store a swap replaced
 * (docs/DESIGN.md "What the MongoDB read model guarantees"). A live batch that found the registry
 * unlocked may write its store for {@link LIVE_WRITE_WINDOW_MS} from the moment it sent that
 * registry read, and checks so before each write; the swap drops the old store only once that
 * window, counted from when its lock took effect, and a margin for writes in flight have passed. So
 * no late write of a batch re-creates a dropped store (MongoDB creates a collection on its first
 * write, without the store's indexes). Durations are measured on each process's monotonic clock; no
 * two clocks are compared.
 */

/** How long a live batch may write a store after the registry read that found it unlocked, in ms. */
export const LIVE_WRITE_WINDOW_MS = 30_000;

/** What the swap waits beyond the window before it drops the old store: writes still in flight, in ms. */
export const DROP_MARGIN_MS = 5_000;

/** Raised by {@link WriteFence.check} once the window is over; the batch reads the registry again and starts over. */
export class WriteWindowClosed extends Error {
  constructor(windowMs: number) {
    super(`a live batch took longer than ${windowMs} ms to write its store; it reads the registry again`);
    this.name = 'WriteWindowClosed';
  }
}

/** A live batch's permission to write the store it found unlocked (see this module's doc). */
export class WriteFence {
  /** The fence of writes that never race a drop (a rebuild's new store, the swap's own catch-up). */
  static readonly OPEN = new WriteFence(0, Infinity);

  /**
   * `openedAt`: the clock's time when the registry read was sent; `windowMs`: the window
   * ({@link LIVE_WRITE_WINDOW_MS}); `clock`: milliseconds, monotonic (default `performance.now`).
   */
  constructor(
    private readonly openedAt: number,
    private readonly windowMs: number,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** Throws {@link WriteWindowClosed} once `windowMs` have passed since `openedAt`. */
  check(): void {
    if (this.clock() - this.openedAt >= this.windowMs) throw new WriteWindowClosed(this.windowMs);
  }
}

/**
 * Milliseconds a swap still waits before it drops the old store: until `windowMs` + `marginMs`
 * after `lockedAt` (its clock's time once the lock was acknowledged, so at or after the lock took
 * effect), 0 once that has passed. Every batch that can write the old store sent its registry read
 * before the lock took effect, so its window closes before `lockedAt + windowMs`. The margin
 * defaults to {@link DROP_MARGIN_MS}, or a sixth of a shorter window (tests).
 */
export function dropWaitMs(lockedAt: number, now: number, windowMs: number, marginMs = Math.min(DROP_MARGIN_MS, windowMs / 6)): number {
  return Math.max(0, lockedAt + windowMs + marginMs - now);
}
