/**
 * The projector's failure handling (docs/operations.md "Health"; docs/DESIGN.md "Failures of the
 * subscription"): it resubscribes after a subscription error, names the failing event, parks it
 * after the configured attempts (then parks the rest of its stream), and never parks while the
 * store does not answer.
 * An in-memory log and read-store double; back-off of 1 ms.
 */
import {
  LOG_START,
  logPosition,
  PermanentSubscriptionError,
  type LogPosition,
  type EventStore,
  type ReadAllOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '@app/event-sourcing';
import type { ParkedEvent, ParkedEventStore } from './parked-events';
import { Projector, type ProjectorLogger } from './projector';
import { assessReadiness } from './readiness';
import type { ProjectionStore } from './projection-store.port';

/** A log in memory whose subscriptions can be told to fail when opened. */
class MemoryLog {
  readonly events: RecordedEvent[] = [];
  failingSubscriptions = 0;
  /** What a failing subscription throws. */
  failure: () => Error = () => new Error('connection reset');
  subscriptions = 0;
  private readonly wake: Array<() => void> = [];

  append(streamId: string, type = 'Tested'): RecordedEvent {
    const streamRevision = this.events.filter((e) => e.streamId === streamId).length;
    const event = { streamId, streamRevision, position: this.events.length + 1, type, data: {}, metadata: {} } as unknown as RecordedEvent;
    this.events.push(event);
    for (const w of this.wake.splice(0)) w();
    return event;
  }

  asStore(): EventStore {
    return {
      readAll: async (o: ReadAllOptions = {}) => this.events.filter((e) => e.position > (o.fromPosition ?? 0)).slice(0, o.maxCount),
      subscribeToAll: (o: SubscribeOptions = {}) => this.subscribe(o.fromPosition ?? 0),
      headPosition: async () => this.events.length,
    } as unknown as EventStore;
  }

  private subscribe(from: number): Subscription {
    this.subscriptions++;
    const fail = this.failingSubscriptions > 0;
    if (fail) this.failingSubscriptions--;
    let closed = false;
    const { events, wake } = this;
    const failure = this.failure;
    return {
      unsubscribe: async () => {
        closed = true;
        for (const w of wake.splice(0)) w();
      },
      async *[Symbol.asyncIterator]() {
        if (fail) throw failure();
        let at = from;
        while (!closed) {
          const next = events.find((e) => e.position > at);
          if (next) {
            at = next.position;
            yield next;
          } else await new Promise<void>((r) => wake.push(r));
        }
      },
    };
  }
}

/** A read store that records what it applied and fails on the positions in `poisoned` (or on everything while `down`). */
class FakeStore implements ProjectionStore, ParkedEventStore {
  position = 0;
  readonly applied: number[] = [];
  readonly parked: ParkedEvent[] = [];
  readonly poisoned = new Set<number>();
  down = false;
  calls = 0;

  async checkpoint(): Promise<LogPosition> {
    if (this.down) throw new Error('store unavailable');
    return logPosition(this.position);
  }
  async applyBatch(events: RecordedEvent[]): Promise<void> {
    this.calls++;
    if (this.down) throw new Error('store unavailable');
    const bad = events.find((e) => this.poisoned.has(e.position));
    if (bad) throw new Error(`UNIQUE constraint failed at ${bad.position}`);
    this.applied.push(...events.map((e) => e.position));
    this.position = events[events.length - 1].position;
  }
  async parkEvent(event: ParkedEvent): Promise<void> {
    this.parked.push(event);
    this.position = Math.max(this.position, event.position);
  }
  async parkedEvents(): Promise<ParkedEvent[]> {
    return this.parked;
  }
}

function recordingLogger(): ProjectorLogger & { errors: Array<[string, Record<string, unknown> | undefined]> } {
  const errors: Array<[string, Record<string, unknown> | undefined]> = [];
  return { errors, error: (m, c) => errors.push([m, c]), warn: () => undefined };
}

const fast = { retryDelayMs: 1, maxRetryDelayMs: 2, maxAttempts: 3, now: () => new Date('2026-05-01T00:00:00Z') };

describe('Projector failure handling', () => {
  it('parks a poisoned event after maxAttempts, skips it, and keeps projecting the other streams', async () => {
    const log = new MemoryLog();
    const store = new FakeStore();
    log.append('trainee-A');
    const bad = log.append('trainee-B', 'TraineeUpdated');
    log.append('trainee-C');
    store.poisoned.add(bad.position);
    const logger = recordingLogger();
    const projector = new Projector(log.asStore(), store, logger, fast);

    expect(await projector.catchUp()).toBe(3);
    expect(store.applied).toEqual([1, 3]);
    expect(store.parked).toEqual([
      {
        projection: 'trainees',
        stream_id: 'trainee-B',
        revision: 0,
        type: 'TraineeUpdated',
        position: 2,
        error: 'UNIQUE constraint failed at 2',
        attempts: 3,
        parked_at: '2026-05-01T00:00:00.000Z',
      },
    ]);
    // Each failure names the event; the last log line says it was parked.
    const failures = logger.errors.filter(([m]) => m.includes('failed; retrying'));
    expect(failures.map(([, c]) => c)).toEqual(
      [1, 2, 3].map((attempts) =>
        expect.objectContaining({ stream_id: 'trainee-B', revision: 0, type: 'TraineeUpdated', position: 2, attempts }),
      ),
    );
    expect(logger.errors.at(-1)?.[0]).toMatch(/parked/);
    expect(projector.health()).toMatchObject({ state: 'stopped', checkpoint: 3, failure: null, parked: 1 });
  });

  it('parks the later events of a stream with a parked event at once, so no document is folded over the gap', async () => {
    const log = new MemoryLog();
    const store = new FakeStore();
    store.poisoned.add(log.append('trainee-B').position);
    const projector = new Projector(log.asStore(), store, recordingLogger(), fast);
    await projector.catchUp();
    log.append('trainee-B');
    log.append('trainee-A');
    await projector.catchUp();
    expect(store.applied).toEqual([3]);
    expect(store.parked.map((p) => [p.position, p.attempts, p.error])).toEqual([
      [1, 3, 'UNIQUE constraint failed at 1'],
      [2, 0, 'an earlier event of stream trainee-B is parked'],
    ]);
    // A new projector on the same store remembers the parked stream.
    log.append('trainee-B');
    await new Projector(log.asStore(), store, recordingLogger(), fast).catchUp();
    expect(store.parked.map((p) => p.position)).toEqual([1, 2, 4]);
  });

  it('does not count attempts while the store does not answer, and reports itself failing meanwhile', async () => {
    const log = new MemoryLog();
    const store = new FakeStore();
    const projector = new Projector(log.asStore(), store, recordingLogger(), fast);
    await projector.start();
    store.down = true;
    const event = log.append('provider-10000001', 'TokenIssued');
    // Let more attempts than maxAttempts fail while the store is down: none counts, nothing is parked.
    while (store.calls < 8) await new Promise((r) => setTimeout(r, 1));
    expect(projector.health()).toMatchObject({
      state: 'failing',
      failure: { kind: 'apply', stream_id: 'provider-10000001', revision: 0, type: 'TokenIssued', position: 1, attempts: 0 },
    });
    expect(store.parked).toEqual([]);
    store.down = false;
    expect(await projector.waitFor(event.position)).toBe(true);
    expect(projector.health()).toMatchObject({ state: 'live', failure: null, checkpoint: 1 });
    await projector.stop();
    expect(projector.health().state).toBe('stopped');
  });

  it('resubscribes from the checkpoint after a subscription error and reports failing until then', async () => {
    const log = new MemoryLog();
    const store = new FakeStore();
    log.append('trainee-A');
    log.failingSubscriptions = 2;
    const logger = recordingLogger();
    const projector = new Projector(log.asStore(), store, logger, fast);
    await projector.start();
    const event = log.append('trainee-A');
    expect(await projector.waitFor(event.position)).toBe(true);
    expect(log.subscriptions).toBe(3);
    expect(store.applied).toEqual([1, 2]);
    expect(logger.errors.filter(([m]) => m.includes('subscription failed')).map(([, c]) => c)).toEqual([
      expect.objectContaining({ error: 'connection reset', checkpoint: 0, attempts: 1 }),
      expect.objectContaining({ error: 'connection reset', checkpoint: 0, attempts: 2 }),
    ]);
    expect(projector.health()).toMatchObject({ state: 'live', failure: null });
    await projector.stop();
  });

  it('says which subscription failure is going on while it backs off', async () => {
    const log = new MemoryLog();
    log.failingSubscriptions = 1_000_000;
    const projector = new Projector(log.asStore(), new FakeStore(), recordingLogger(), { ...fast, retryDelayMs: 60_000 });
    await projector.start();
    while (!projector.health().failure) await new Promise((r) => setTimeout(r, 1));
    expect(projector.health()).toMatchObject({ state: 'failing', failure: { kind: 'subscription', message: 'connection reset' } });
    await projector.stop(); // wakes the back-off at once
    expect(projector.health()).toMatchObject({ state: 'stopped', failure: null });
  });
});

describe('Projector on a subscription that cannot go on', () => {
  it('stops for good: says failed with the error, tells onFatal once, and never subscribes again', async () => {
    const log = new MemoryLog();
    log.append('trainee-A');
    log.failingSubscriptions = 1;
    log.failure = () => new PermanentSubscriptionError('EventStoreDB subscription cannot go on: AccessDeniedError');
    const logger = recordingLogger();
    const fatal: PermanentSubscriptionError[] = [];
    const projector = new Projector(log.asStore(), new FakeStore(), logger, { ...fast, onFatal: (e) => fatal.push(e) });
    await projector.start();
    while (fatal.length === 0) await new Promise((r) => setTimeout(r, 1));

    expect(fatal).toHaveLength(1);
    expect(projector.live).toBe(false);
    expect(projector.health()).toMatchObject({
      state: 'failed',
      checkpoint: 0,
      failure: { kind: 'subscription', message: 'EventStoreDB subscription cannot go on: AccessDeniedError' },
    });
    expect(logger.errors.map(([m]) => m)).toEqual(['projector subscription cannot go on; the projector has stopped']);
    await new Promise((r) => setTimeout(r, 10));
    expect(log.subscriptions).toBe(1);
    const readiness = await assessReadiness({
      storedLog: log.asStore(),
      projector: projector.health(),
      checkpoint: LOG_START,
      maxLagSeconds: 30,
      behindUntil: LOG_START,
      now: new Date('2026-05-01T00:00:00Z'),
    });
    // Ready or not and why, naming no internals: what failed is in the logs and `admin projections status`.
    expect(readiness).toEqual({
      ready: false,
      reasons: ['the projector has stopped on an error that subscribing again cannot cure (see the logs)'],
    });
    await projector.stop();
    expect(projector.health().state).toBe('stopped');
  });

  it('is not ready while the read store is damaged, and says a restart rebuilds it', async () => {
    const log = new MemoryLog();
    const readiness = await assessReadiness({
      storedLog: log.asStore(),
      projector: null,
      checkpoint: LOG_START,
      maxLagSeconds: 30,
      behindUntil: LOG_START,
      readModelsDamaged: true,
    });
    expect(readiness).toEqual({
      ready: false,
      reasons: ['the read models are damaged; a restart of the service moves them aside and rebuilds them from the event log'],
    });
  });
});

describe('Projector onApplied', () => {
  it('is told the events it stored, in batches and one by one, but not a parked one; what it throws is ignored', async () => {
    const log = new MemoryLog();
    const store = new FakeStore();
    log.append('provider-1');
    const bad = log.append('trainee-B');
    log.append('trainee-C');
    store.poisoned.add(bad.position);
    const told: number[][] = [];
    const projector = new Projector(log.asStore(), store, recordingLogger(), {
      ...fast,
      onApplied: (events) => {
        told.push(events.map((e) => e.position));
        throw new Error('a careless listener');
      },
    });
    expect(await projector.catchUp()).toBe(3);
    // The batch failed on position 2: its events were applied one by one and 2 was parked.
    expect(told).toEqual([[1], [3]]);
    expect(store.applied).toEqual([1, 3]);
  });
});
