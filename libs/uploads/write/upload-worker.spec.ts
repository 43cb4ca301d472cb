import type { EventLoopUtilization } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { BackgroundPace, type PaceClock, type WorkPace } from './background-pace';
import { UploadWorker } from './upload-worker';
import type { UploadPorts } from './upload.ports';

/** A clock that moves only as the jobs say they worked, the loop always busy; its waits are real turns of the loop, its sleeps recorded. */
function fakeClock(): PaceClock & { at: number; sleeps: number[] } {
  const mark = { idle: 0, active: 0, utilization: 0 } as EventLoopUtilization;
  const clock = {
    at: 0,
    sleeps: [] as number[],
    now: () => clock.at,
    utilization: (since: EventLoopUtilization | undefined) => ({ mark, utilization: since ? 1 : 0 }),
    sleep: async (ms: number) => {
      clock.sleeps.push(ms);
      clock.at += ms;
      await nextTurn();
    },
    nextTurn: async () => void (await nextTurn()),
  };
  return clock;
}

/** A worker whose jobs each take `rows[id]` rows of 5 ms, recording every row worked and when each job ended. */
function workerOf(rows: Record<string, number>) {
  const clock = fakeClock();
  const log: string[] = [];
  const ended: string[] = [];
  const failed: string[] = [];
  const job = async (id: string, pace: WorkPace) => {
    if (id.startsWith('fail')) throw new Error('broken file');
    for (let row = 0; row < rows[id]; row++) {
      clock.at += 5;
      log.push(id);
      await pace.next();
    }
    ended.push(id);
  };
  const worker = new UploadWorker({} as UploadPorts, (id) => failed.push(id), { job, pace: new BackgroundPace(clock, 20, 0.5, 0.5) });
  return { worker, log, ended, failed, clock };
}

describe('UploadWorker', () => {
  it("takes the providers in turn, a slice each: another provider's one-row file ends while the first's large files are still being worked", async () => {
    const rows: Record<string, number> = { a1: 200, a2: 200, a3: 200, a4: 200, a5: 200, b1: 1 };
    const { worker, log, ended } = workerOf(rows);
    for (const id of ['a1', 'a2', 'a3', 'a4', 'a5']) worker.enqueue(id, 'A');
    worker.enqueue('b1', 'B');
    await worker.idle();
    expect(ended).toEqual(['b1', 'a1', 'a2', 'a3', 'a4', 'a5']);
    // b1 was worked within A's second slice: four rows of a1 before it, at 5 ms a row in slices of 20 ms.
    expect(log.indexOf('b1')).toBe(4);
    expect(log.filter((id) => id === 'a1')).toHaveLength(200);
  });

  it('alternates slices between providers with work waiting, and works each provider’s uploads in the order asked', async () => {
    const { worker, log } = workerOf({ a1: 8, a2: 4, b1: 8 });
    worker.enqueue('a1', 'A');
    worker.enqueue('a2', 'A');
    worker.enqueue('b1', 'B');
    await worker.idle();
    expect(log.join(' ')).toBe(['a1 a1 a1 a1', 'b1 b1 b1 b1', 'a1 a1 a1 a1', 'b1 b1 b1 b1', 'a2 a2 a2 a2'].join(' '));
  });

  it('reports a failed job and goes on; runs an upload asked again while its job ran once more after it', async () => {
    const { worker, log, ended, failed } = workerOf({ a1: 8, b1: 2 });
    worker.enqueue('fail1', 'A');
    worker.enqueue('a1', 'A');
    worker.enqueue('b1', 'B');
    worker.enqueue('a1', 'A');
    while (!log.includes('a1')) await nextTurn();
    worker.enqueue('a1', 'A');
    await worker.idle();
    expect(failed).toEqual(['fail1']);
    expect(ended).toEqual(['b1', 'a1', 'a1']);
  });

  it('starts its first slice when work arrives, however long it waited: it rests as long as it worked, no longer', async () => {
    const { worker, clock } = workerOf({ a1: 8 });
    clock.at += 3_600_000;
    worker.enqueue('a1', 'A');
    await worker.idle();
    clock.at += 60_000;
    worker.enqueue('a1', 'A');
    await worker.idle();
    expect(clock.sleeps.length).toBeGreaterThan(0);
    expect(Math.max(...clock.sleeps)).toBeLessThanOrEqual(20);
  });

  it('stops after the slice in hand, ending the jobs waiting for their turn without reporting them', async () => {
    const { worker, log, ended, failed } = workerOf({ a1: 100, b1: 100 });
    worker.enqueue('a1', 'A');
    worker.enqueue('b1', 'B');
    await nextTurn();
    await worker.stop();
    const worked = log.length;
    worker.enqueue('a1', 'A');
    await worker.idle();
    expect(log.length).toBe(worked);
    expect(worked).toBeLessThan(20);
    expect(ended).toEqual([]);
    expect(failed).toEqual([]);
  });
});
