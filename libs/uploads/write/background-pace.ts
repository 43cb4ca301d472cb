/**
 * Paces an upload's background work so every provider's requests go first (docs/DESIGN.md "Uploads"): between rows it yields, and
 * after each slice, if the event loop was busy, it rests so the work takes at most {@link PACE_SHARE} of the time.
 */
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

/** Wall time, the stores' waits included. */
export const PACE_SLICE_MS = 20;
export const PACE_SHARE = 0.5;
/** Event loop utilization (0–1) over a slice above which the work rests. */
export const PACE_BUSY = 0.5;

/** Monotonic ms, the loop's utilization since a mark, a sleep and a turn; tests give their own. */
export interface PaceClock {
  now(): number;
  utilization(since: EventLoopUtilization | undefined): { mark: EventLoopUtilization; utilization: number };
  sleep(ms: number): Promise<void>;
  nextTurn(): Promise<void>;
}

const realClock: PaceClock = {
  now: () => performance.now(),
  utilization: (since) => {
    const mark = performance.eventLoopUtilization();
    return { mark, utilization: since ? performance.eventLoopUtilization(mark, since).utilization : 0 };
  },
  sleep: async (ms) => void (await sleep(ms)),
  nextTurn: async () => void (await nextTurn()),
};

/** Resolves when the next row may start. */
export interface WorkPace {
  next(): Promise<void>;
}

export class BackgroundPace implements WorkPace {
  private sliceStart: number;
  private sliceMark: EventLoopUtilization;

  constructor(
    private readonly clock: PaceClock = realClock,
    private readonly sliceMs = PACE_SLICE_MS,
    private readonly share = PACE_SHARE,
    private readonly busy = PACE_BUSY,
  ) {
    this.sliceStart = clock.now();
    this.sliceMark = clock.utilization(undefined).mark;
  }

  /** Yields to waiting requests; once the slice has run its length, {@link rest}s. */
  async next(): Promise<void> {
    return this.sliceOver() ? this.rest() : this.turn();
  }

  /** After a pause: the time before it was not work. */
  restart(): void {
    this.sliceStart = this.clock.now();
    this.sliceMark = this.clock.utilization(undefined).mark;
  }

  sliceOver(): boolean {
    return this.clock.now() - this.sliceStart >= this.sliceMs;
  }

  /** One turn of the event loop, within the slice. */
  turn(): Promise<void> {
    return this.clock.nextTurn();
  }

  /** Rests when the loop was busier than {@link PACE_BUSY}, so the work's share is {@link PACE_SHARE}, else yields; then a new slice. */
  async rest(): Promise<void> {
    const worked = this.clock.now() - this.sliceStart;
    const { utilization } = this.clock.utilization(this.sliceMark);
    if (utilization > this.busy) await this.clock.sleep((worked * (1 - this.share)) / this.share);
    else await this.clock.nextTurn();
    this.sliceStart = this.clock.now();
    this.sliceMark = this.clock.utilization(undefined).mark;
  }
}
