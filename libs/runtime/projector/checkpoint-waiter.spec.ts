import { logPosition, type LogPosition } from '@app/event-sourcing';
import { CheckpointWaiter } from './checkpoint-waiter';

/** A store whose checkpoint the test moves, counting the reads. */
function store(initial = 0) {
  const s = {
    position: initial,
    reads: 0,
    failing: false,
    async checkpoint(): Promise<LogPosition> {
      s.reads++;
      if (s.failing) throw new Error('down');
      return logPosition(s.position);
    },
  };
  return s;
}

describe('CheckpointWaiter (docs/DESIGN.md "Read-your-writes")', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('one poller serves every waiting writer: one checkpoint read per round, however many wait', async () => {
    const s = store();
    const waiter = new CheckpointWaiter(s, { minIntervalMs: 5, maxIntervalMs: 100 });
    const waits = Array.from({ length: 50 }, (_, i) => waiter.waitFor(logPosition(i + 1)));
    await jest.advanceTimersByTimeAsync(50);
    const readsWhileWaiting = s.reads;
    expect(readsWhileWaiting).toBeGreaterThan(0);
    expect(readsWhileWaiting).toBeLessThan(20);
    s.position = 50;
    await jest.advanceTimersByTimeAsync(200);
    await expect(Promise.all(waits)).resolves.toEqual(Array(50).fill(true));
    const after = s.reads;
    await jest.advanceTimersByTimeAsync(1_000);
    expect(s.reads).toBe(after);
  });

  it('backs off while the checkpoint stands still, and polls at the shortest interval again for a new writer', async () => {
    const s = store();
    const waiter = new CheckpointWaiter(s, { minIntervalMs: 5, maxIntervalMs: 100, timeoutMs: 60_000 });
    void waiter.waitFor(logPosition(1));
    await jest.advanceTimersByTimeAsync(2_000);
    // 5, 10, 20, 40, 80, then every 100 ms: about 24 reads in 2 s, not 400.
    expect(s.reads).toBeLessThan(30);
    const before = s.reads;
    const second = waiter.waitFor(logPosition(2));
    s.position = 2;
    await jest.advanceTimersByTimeAsync(1);
    await expect(second).resolves.toBe(true);
    expect(s.reads).toBe(before + 1);
  });

  it('answers false at the deadline, true at once for a position already reached, and survives a failing store', async () => {
    const s = store(10);
    const waiter = new CheckpointWaiter(s, { timeoutMs: 1_000 });
    await expect(waiter.waitFor(logPosition(5))).resolves.toBe(true);
    s.failing = true;
    const late = waiter.waitFor(logPosition(20));
    await jest.advanceTimersByTimeAsync(1_001);
    await expect(late).resolves.toBe(false);
    s.failing = false;
    const reached = waiter.waitFor(logPosition(10), 1_000);
    await jest.advanceTimersByTimeAsync(10);
    await expect(reached).resolves.toBe(true);
  });
});
