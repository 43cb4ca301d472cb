import type { EventLoopUtilization } from 'node:perf_hooks';
import { BackgroundPace, type PaceClock } from './background-pace';

/** A clock that moves only when told to, with the event loop as busy as `busy` says, recording every wait. */
function fakeClock(): PaceClock & { at: number; busy: number; waits: string[] } {
  const mark = { idle: 0, active: 0, utilization: 0 } as EventLoopUtilization;
  const clock = {
    at: 0,
    busy: 1,
    waits: [] as string[],
    now: () => clock.at,
    utilization: (since: EventLoopUtilization | undefined) => ({ mark, utilization: since ? clock.busy : 0 }),
    sleep: async (ms: number) => {
      clock.waits.push(`sleep ${ms}`);
      clock.at += ms;
    },
    nextTurn: async () => void clock.waits.push('turn'),
  };
  return clock;
}

describe('BackgroundPace', () => {
  it('only yields a turn while the slice has not run its length', async () => {
    const clock = fakeClock();
    const pace = new BackgroundPace(clock, 20, 0.5, 0.5);
    for (let row = 0; row < 3; row++) {
      clock.at += 6;
      await pace.next();
    }
    expect(clock.waits).toEqual(['turn', 'turn', 'turn']);
  });

  it('rests as long as the slice worked once it has run its length with the loop busy, then starts a new slice', async () => {
    const clock = fakeClock();
    const pace = new BackgroundPace(clock, 20, 0.5, 0.5);
    clock.at += 15;
    await pace.next();
    clock.at += 10;
    await pace.next(); // 25 ms worked: rests 25
    clock.at += 5;
    await pace.next(); // a new slice: 5 ms worked
    expect(clock.waits).toEqual(['turn', 'sleep 25', 'turn']);
  });

  it('goes on without a rest when the loop was mostly idle over the slice (the work waiting on writes, no requests)', async () => {
    const clock = fakeClock();
    clock.busy = 0.3;
    const pace = new BackgroundPace(clock, 20, 0.5, 0.5);
    for (let row = 0; row < 10; row++) {
      clock.at += 7;
      await pace.next();
    }
    expect(clock.waits.every((w) => w === 'turn')).toBe(true);
    clock.busy = 0.8;
    clock.at += 21; // 7 ms of the slice were worked before: 28
    await pace.next();
    expect(clock.waits.at(-1)).toBe('sleep 28');
  });

  it('keeps the work to its share of the time over many rows while the loop is busy', async () => {
    const clock = fakeClock();
    const pace = new BackgroundPace(clock, 20, 0.25, 0.5);
    let worked = 0;
    for (let row = 0; row < 1000; row++) {
      clock.at += 3;
      worked += 3;
      await pace.next();
    }
    expect(worked / clock.at).toBeCloseTo(0.25, 2);
  });
});
