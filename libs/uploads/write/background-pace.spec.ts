import { BackgroundPace, type PaceClock } from './background-pace';

/** A clock that moves only when told to, recording every wait. */
function fakeClock(): PaceClock & { at: number; waits: string[] } {
  const clock = {
    at: 0,
    waits: [] as string[],
    now: () => clock.at,
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
    const pace = new BackgroundPace(clock, 20, 0.5);
    for (let row = 0; row < 3; row++) {
      clock.at += 6;
      await pace.next();
    }
    expect(clock.waits).toEqual(['turn', 'turn', 'turn']);
  });

  it('rests as long as the slice worked once it has run its length, then starts a new slice', async () => {
    const clock = fakeClock();
    const pace = new BackgroundPace(clock, 20, 0.5);
    clock.at += 15;
    await pace.next();
    clock.at += 10;
    await pace.next(); // 25 ms worked: rests 25
    clock.at += 5;
    await pace.next(); // a new slice: 5 ms worked
    expect(clock.waits).toEqual(['turn', 'sleep 25', 'turn']);
  });

  it('keeps the work to its share of the time over many rows', async () => {
    const clock = fakeClock();
    const pace = new BackgroundPace(clock, 20, 0.25);
    let worked = 0;
    for (let row = 0; row < 1000; row++) {
      clock.at += 3;
      worked += 3;
      await pace.next();
    }
    expect(worked / clock.at).toBeCloseTo(0.25, 2);
  });
});
