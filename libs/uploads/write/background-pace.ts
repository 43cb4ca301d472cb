/**
 * The pace of an upload's background work (its check and its submit), so that the requests of
 * every provider go first (docs/DESIGN.md "Uploads": an upload never starves other providers).
 * The work calls {@link BackgroundPace.next} between rows: it always lets waiting requests run
 * (`setImmediate`), and after each slice of {@link PACE_SLICE_MS} of work it rests as long again,
 * so the work holds the process at most half of the time, loaded or not.
 */
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';

/** The work done between two rests, ms (wall time, its waits for the stores included). */
export const PACE_SLICE_MS = 20;
/** The part of the time the work may take: half. */
export const PACE_SHARE = 0.5;

/** What a pace reads and waits with: a monotonic clock in ms and a sleep (tests give their own). */
export interface PaceClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  nextTurn(): Promise<void>;
}

const realClock: PaceClock = {
  now: () => performance.now(),
  sleep: async (ms) => void (await sleep(ms)),
  nextTurn: async () => void (await nextTurn()),
};

/** One run of background work's pace: a slice of work, a rest of the same length, and so on. */
export class BackgroundPace {
  private sliceStart: number;

  constructor(
    private readonly clock: PaceClock = realClock,
    private readonly sliceMs = PACE_SLICE_MS,
    private readonly share = PACE_SHARE,
  ) {
    this.sliceStart = clock.now();
  }

  /**
   * Between two rows: yields to waiting requests, and once the slice has run its length, rests
   * so that the work's share of the time is {@link PACE_SHARE}. Resolves when the next row may start.
   */
  async next(): Promise<void> {
    const worked = this.clock.now() - this.sliceStart;
    if (worked < this.sliceMs) return this.clock.nextTurn();
    await this.clock.sleep((worked * (1 - this.share)) / this.share);
    this.sliceStart = this.clock.now();
  }
}
