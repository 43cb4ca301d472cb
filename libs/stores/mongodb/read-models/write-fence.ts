/**
 * The fence between live batches and the drop of a swapped-out store (docs/DESIGN.md "What the MongoDB read model guarantees"): a
 * batch sends writes only within {@link LIVE_WRITE_WINDOW_MS} of sending the registry read that found its store unlocked, and the swap
 * drops only after that window and a margin from when its lock took effect; else a late write would re-create the store without its
 * indexes. A write sent in the window can still land after it (the driver sends a retryable write again once a new primary is
 * elected), so a batch that settles after its window drops again what it may have re-created (`dropAgain`, ./mongo-swap.ts): a check
 * made after the batch's last write settled, which no write of its own can outlast. The wait stays, so that a batch settling in its
 * window (all but those that met a failover) needs no registry read more. Chosen over fencing each write (writers reading a fence
 * document in the same transaction: the adapter uses none, the revision guard's duplicate keys would abort them) and over writes that
 * cannot create a collection (a new document is an upsert, which creates it). Each process measures intervals on its own monotonic
 * clock; no two clocks are compared.
 */

export const LIVE_WRITE_WINDOW_MS = 30_000;

/** Writes still in flight. */
export const DROP_MARGIN_MS = 5_000;

/** The batch reads the registry again and starts over. */
export class WriteWindowClosed extends Error {
  constructor(windowMs: number) {
    super(`a live batch took longer than ${windowMs} ms to write its store; it reads the registry again`);
    this.name = 'WriteWindowClosed';
  }
}

export class WriteFence {
  /** For writes that never race a drop (a rebuild's new store, the swap's own catch-up). */
  static readonly OPEN = new WriteFence(0, Infinity);

  /** `openedAt` when the registry read was sent, on `clock` (monotonic ms). */
  constructor(
    private readonly openedAt: number,
    private readonly windowMs: number,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** Before each write. */
  check(): void {
    if (this.closed()) throw new WriteWindowClosed(this.windowMs);
  }

  /** After the batch settled: true when a write of it may have landed after a swap dropped its store (`dropAgain`, ./mongo-swap.ts). */
  closed(): boolean {
    return this.clock() - this.openedAt >= this.windowMs;
  }
}

/**
 * Until `windowMs` + `marginMs` after `lockedAt` (when the lock was acknowledged, so at or after it took effect): every batch that
 * can write the old store sent its registry read before, so its window closes by then. The margin is a sixth of a shorter window (tests).
 */
export function dropWaitMs(lockedAt: number, now: number, windowMs: number, marginMs = Math.min(DROP_MARGIN_MS, windowMs / 6)): number {
  return Math.max(0, lockedAt + windowMs + marginMs - now);
}
