/**
 * The pace of an upload's background work (its check and its submit), so that the requests of
 * every provider go first (docs/DESIGN.md "Uploads": an upload never starves other providers).
 * The work calls {@link BackgroundPace.next} between rows: it always lets waiting requests run
 * (`setImmediate`), and after each slice of {@link PACE_SLICE_MS} of work it looks at how busy the
 * event loop was over the slice. Busier than {@link PACE_BUSY} (requests beside the work, or the
 * work alone holding the loop), it rests so that the work takes at most {@link PACE_SHARE} of the
 * time; otherwise (the work mostly waiting on the stores' writes, nothing else to serve) it goes on.
 */
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

/** The work done between two looks, ms (wall time, its waits for the stores included). */
export const PACE_SLICE_MS = 20;
/** The part of the time the work may take while the event loop is busy: half. */
export const PACE_SHARE = 0.5;
/** The event loop's utilization over a slice (0–1) above which the work rests. */
export const PACE_BUSY = 0.5;

/**
 * What a pace reads and waits with: a monotonic clock in ms, the event loop's utilization
 * (`performance.eventLoopUtilization`, from a mark to now), a sleep and a turn of the loop (tests
 * give their own).
 */
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

/** What work calls between two of its rows: resolves when the next row may start. */
export interface WorkPace {
  next(): Promise<void>;
}

/** One run of background work's pace: slices of work, each followed by a rest when the loop was busy. */
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

  /**
   * Between two rows: yields to waiting requests, and once the slice has run its length, rests
   * (when the loop was busier than {@link PACE_BUSY} over it) so that the work's share of the time
   * is {@link PACE_SHARE}, then starts the next slice. Resolves when the next row may start.
   */
  async next(): Promise<void> {
    return this.sliceOver() ? this.rest() : this.turn();
  }

  /** Starts a new slice now (work starting after a pause: the time before it was not work). */
  restart(): void {
    this.sliceStart = this.clock.now();
    this.sliceMark = this.clock.utilization(undefined).mark;
  }

  /** Whether the slice has run its length. */
  sliceOver(): boolean {
    return this.clock.now() - this.sliceStart >= this.sliceMs;
  }

  /** Lets waiting requests run (a turn of the event loop), within the slice. */
  turn(): Promise<void> {
    return this.clock.nextTurn();
  }

  /**
   * Ends the slice: rests (when the loop was busier than {@link PACE_BUSY} over it) so that the
   * work's share of the time is {@link PACE_SHARE}, else yields a turn; then starts the next slice.
   */
  async rest(): Promise<void> {
    const worked = this.clock.now() - this.sliceStart;
    const { utilization } = this.clock.utilization(this.sliceMark);
    if (utilization > this.busy) await this.clock.sleep((worked * (1 - this.share)) / this.share);
    else await this.clock.nextTurn();
    this.sliceStart = this.clock.now();
    this.sliceMark = this.clock.utilization(undefined).mark;
  }
}
