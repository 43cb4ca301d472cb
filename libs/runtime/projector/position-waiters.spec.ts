import { logPosition as at } from '@app/event-sourcing';
import { PositionWaiters } from './position-waiters';

describe('PositionWaiters (docs/DESIGN.md "Read-your-writes")', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('answers true at once for a position already reached', async () => {
    await expect(new PositionWaiters().wait(at(5), at(7), 1000)).resolves.toBe(true);
  });

  it('settles each waiter when the checkpoint reaches its position, and no earlier', async () => {
    const waiters = new PositionWaiters();
    const settled: string[] = [];
    void waiters.wait(at(10), at(0), 1000).then((r) => settled.push(`10:${r}`));
    void waiters.wait(at(20), at(0), 1000).then((r) => settled.push(`20:${r}`));
    waiters.advance(at(9));
    await Promise.resolve();
    expect(settled).toEqual([]);
    waiters.advance(at(15));
    await Promise.resolve();
    expect(settled).toEqual(['10:true']);
    waiters.advance(at(20));
    await Promise.resolve();
    expect(settled).toEqual(['10:true', '20:true']);
  });

  it('answers false after the timeout', async () => {
    const waiters = new PositionWaiters();
    const answer = waiters.wait(at(10), at(0), 500);
    jest.advanceTimersByTime(499);
    waiters.advance(at(9));
    jest.advanceTimersByTime(1);
    await expect(answer).resolves.toBe(false);
  });

  it('releases every waiter with the answer given (stopped: true, closed: false)', async () => {
    const waiters = new PositionWaiters();
    const a = waiters.wait(at(10), at(0), 1000);
    const b = waiters.wait(at(30), at(0), 1000);
    waiters.releaseAll(false);
    await expect(Promise.all([a, b])).resolves.toEqual([false, false]);
    expect(jest.getTimerCount()).toBe(0);
  });
});
