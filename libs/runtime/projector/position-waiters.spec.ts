import { PositionWaiters } from './position-waiters';

describe('PositionWaiters (docs/DESIGN.md "Read-your-writes")', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('answers true at once for a position already reached', async () => {
    await expect(new PositionWaiters().wait(5, 7, 1000)).resolves.toBe(true);
  });

  it('settles each waiter when the checkpoint reaches its position, and no earlier', async () => {
    const waiters = new PositionWaiters();
    const settled: string[] = [];
    void waiters.wait(10, 0, 1000).then((r) => settled.push(`10:${r}`));
    void waiters.wait(20, 0, 1000).then((r) => settled.push(`20:${r}`));
    waiters.advance(9);
    await Promise.resolve();
    expect(settled).toEqual([]);
    waiters.advance(15);
    await Promise.resolve();
    expect(settled).toEqual(['10:true']);
    waiters.advance(20);
    await Promise.resolve();
    expect(settled).toEqual(['10:true', '20:true']);
  });

  it('answers false after the timeout', async () => {
    const waiters = new PositionWaiters();
    const answer = waiters.wait(10, 0, 500);
    jest.advanceTimersByTime(499);
    waiters.advance(9);
    jest.advanceTimersByTime(1);
    await expect(answer).resolves.toBe(false);
  });

  it('releases every waiter with the answer given (stopped: true, closed: false)', async () => {
    const waiters = new PositionWaiters();
    const a = waiters.wait(10, 0, 1000);
    const b = waiters.wait(30, 0, 1000);
    waiters.releaseAll(false);
    await expect(Promise.all([a, b])).resolves.toEqual([false, false]);
    expect(jest.getTimerCount()).toBe(0);
  });
});
