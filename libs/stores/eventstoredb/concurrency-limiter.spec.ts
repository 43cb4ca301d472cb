/**
 * The append limiter (concurrency-limiter.ts): bounded in-flight count, FIFO order, release on any
 * outcome. Tasks are controlled by hand-resolved promises; no timing.
 */
import { EventStoreUnavailableError } from '@app/event-sourcing';
import { ConcurrencyLimiter } from './concurrency-limiter';

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every queued promise callback run. */
async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

describe('ConcurrencyLimiter', () => {
  it('runs at most maxConcurrent tasks at once and starts the others in submission order', async () => {
    const limiter = new ConcurrencyLimiter(2);
    const gates = Array.from({ length: 5 }, () => deferred<number>());
    const started: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const results = gates.map((gate, i) =>
      limiter.run(async () => {
        started.push(i);
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        try {
          return await gate.promise;
        } finally {
          inFlight--;
        }
      }),
    );

    await flush();
    expect(started).toEqual([0, 1]);
    expect(limiter.active).toBe(2);
    expect(limiter.queued).toBe(3);

    gates[1].resolve(1);
    await flush();
    expect(started).toEqual([0, 1, 2]);

    gates[0].resolve(0);
    await flush();
    expect(started).toEqual([0, 1, 2, 3]);

    gates[3].resolve(3);
    gates[2].resolve(2);
    await flush();
    gates[4].resolve(4);

    expect(await Promise.all(results)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(maxInFlight).toBe(2);
    expect(limiter.active).toBe(0);
    expect(limiter.queued).toBe(0);
  });

  it('releases the slot when a task rejects or throws synchronously, and passes the error on', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const failing = limiter.run(async () => {
      throw new Error('async failure');
    });
    const throwing = limiter.run(() => {
      throw new Error('sync failure');
    });
    const after = limiter.run(() => 'ran');

    await expect(failing).rejects.toThrow('async failure');
    await expect(throwing).rejects.toThrow('sync failure');
    await expect(after).resolves.toBe('ran');
    expect(limiter.active).toBe(0);
  });

  it('does not let a newcomer overtake queued tasks when a slot frees', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const first = deferred<void>();
    const order: string[] = [];
    const running = limiter.run(async () => {
      order.push('first');
      await first.promise;
    });
    const queued = limiter.run(async () => {
      order.push('queued');
    });
    await flush();

    first.resolve();
    // Submitted in the same turn as the release: it must still come after the queued task.
    const newcomer = limiter.run(async () => {
      order.push('newcomer');
    });
    await Promise.all([running, queued, newcomer]);

    expect(order).toEqual(['first', 'queued', 'newcomer']);
  });

  it('fails a call at once, without running it, when maxQueued calls already wait', async () => {
    const limiter = new ConcurrencyLimiter(1, 2);
    const gate = deferred<void>();
    const ran: string[] = [];
    const task = (name: string) => () => {
      ran.push(name);
      return gate.promise;
    };
    const running = limiter.run(task('a'));
    const queued = [limiter.run(task('b')), limiter.run(task('c'))];
    await expect(limiter.run(task('d'))).rejects.toBeInstanceOf(EventStoreUnavailableError);
    expect(limiter.queued).toBe(2);
    gate.resolve();
    await Promise.all([running, ...queued]);
    expect(ran).toEqual(['a', 'b', 'c']);
    await expect(limiter.run(async () => 'e')).resolves.toBe('e');
    expect(() => new ConcurrencyLimiter(1, -1)).toThrow(RangeError);
  });

  it('accepts only an integer ≥ 1', () => {
    expect(() => new ConcurrencyLimiter(0)).toThrow(RangeError);
    expect(() => new ConcurrencyLimiter(1.5)).toThrow(RangeError);
    expect(() => new ConcurrencyLimiter(Number.NaN)).toThrow(RangeError);
    expect(new ConcurrencyLimiter(32).maxConcurrent).toBe(32);
  });
});
