/**
 * The projector's failure handling (docs/operations.md "Health"; docs/DESIGN.md "Failures of the
 * subscription"): it resubscribes after a subscription error; it stays on an event it cannot apply,
 * retrying it, names it in its health and reads no further meanwhile, never moves its checkpoint
 * past it, and goes on by itself once it applies.
 * An in-memory log and read-store double; back-off of 1 ms.
 */
import {
  CheckpointAheadOfLog,
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
import { Projector, type ProjectorLogger, type ProjectorOptions } from './projector';
import { assessReadiness } from './readiness';
import { CHECKPOINT_AHEAD_OF_LOG } from './projector-types';
import type { ProjectionStore } from './projection-store.port';

/** A log in memory whose subscriptions can be told to fail when opened. */
class MemoryLog {
  readonly events: RecordedEvent[] = [];
  failingSubscriptions = 0;
  /** What a failing subscription throws. */
  failure: () => Error = () => new Error('connection reset');
  subscriptions = 0;
  /** Events handed out by subscriptions. */
  delivered = 0;
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
    const delivered = () => this.delivered++;
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
            delivered();
            yield next;
          } else await new Promise<void>((r) => wake.push(r));
        }
      },
    };
  }
}

/** A read store that records what it applied and fails on the positions in `poisoned` (or on everything while `down`). */
class FakeStore implements ProjectionStore {
  position = 0;
  readonly applied: number[] = [];
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
}

type Logged = Array<[string, Record<string, unknown> | undefined]>;

function recordingLogger(): ProjectorLogger & { errors: Logged; warnings: Logged } {
  const errors: Logged = [];
  const warnings: Logged = [];
  return { errors, warnings, error: (m, c) => errors.push([m, c]), warn: (m, c) => warnings.push([m, c]) };
}

const fast = { retryDelayMs: 1, maxRetryDelayMs: 2, catchUpAttempts: 3, now: () => new Date('2026-05-01T00:00:00Z') };

/** Projectors a test made, stopped after it whatever its outcome (a failing event is retried until then). */
const made: Projector[] = [];
afterEach(async () => {
  for (const projector of made.splice(0)) await projector.stop();
});

/** A projector over `log` and `store`, stopped after the test. */
function projectorOf(log: MemoryLog, store: ProjectionStore, logger: ProjectorLogger, options: ProjectorOptions = fast): Projector {
  const projector = new Projector(log.asStore(), store, logger, options);
  made.push(projector);
  return projector;
}

/** Resolves once `done()` holds, checking every millisecond. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 1));
}

describe('Projector failure handling', () => {
  it('stays on an event it cannot apply, never past it, says so in its health, and goes on by itself once it applies', async () => {
    const log = new MemoryLog();
    const store = new FakeStore();
    const logger = recordingLogger();
    const projector = projectorOf(log, store, logger);
    await projector.start();
    log.append('trainee-A');
    const bad = log.append('trainee-B', 'TraineeUpdated');
    store.poisoned.add(bad.position);
    const after = log.append('trainee-C');
    await until(() => (projector.health().failure?.attempts ?? 0) >= 20);

    expect(store.applied).toEqual([1]);
    expect(projector.checkpoint).toBe(1);
    expect(projector.health()).toMatchObject({
      state: 'failing',
      checkpoint: 1,
      failure: {
        kind: 'apply',
        message: 'UNIQUE constraint failed at 2',
        stream_id: 'trainee-B',
        revision: 0,
        type: 'TraineeUpdated',
        position: 2,
        since: '2026-05-01T00:00:00.000Z',
      },
    });
    expect(await projector.waitFor(after.position, 5)).toBe(false);
    // Logged at error once (the clock stands still here: at most once a minute after the first).
    expect(logger.errors.map(([m, c]) => [m, c?.position, c?.attempts])).toEqual([
      ['projection of an event failed; retrying it, nothing after it is projected until it applies', 2, 1],
    ]);

    store.poisoned.clear();
    expect(await projector.waitFor(after.position)).toBe(true);
    expect(store.applied).toEqual([1, 2, 3]);
    expect(projector.health()).toMatchObject({ state: 'live', failure: null, checkpoint: 3 });
    expect(logger.warnings.map(([m]) => m)).toContain('projection of an event that failed succeeded; going on');
    await projector.stop();
  });

  it('reads no further from the subscription while an event fails', async () => {
    const log = new MemoryLog();
    const store = new FakeStore();
    const projector = projectorOf(log, store, recordingLogger());
    await projector.start();
    store.poisoned.add(log.append('trainee-B').position);
    await until(() => projector.health().failure !== null);
    for (let i = 0; i < 200; i++) log.append(`trainee-${i}`);
    await until(() => (projector.health().failure?.attempts ?? 0) >= 10);
    // The failing event and at most the one read before reading waited for it.
    expect(log.delivered).toBeLessThanOrEqual(2);
    store.poisoned.clear();
    expect(await projector.waitFor(logPosition(201))).toBe(true);
    expect(store.applied).toEqual(Array.from({ length: 201 }, (_, i) => i + 1));
    await projector.stop();
  });

  it('catchUp stops at an event that still fails after catchUpAttempts, leaving it to the live subscription', async () => {
    const log = new MemoryLog();
    const store = new FakeStore();
    log.append('trainee-A');
    store.poisoned.add(log.append('trainee-B').position);
    log.append('trainee-C');
    const projector = projectorOf(log, store, recordingLogger());

    expect(await projector.catchUp()).toBe(1);
    expect(store.applied).toEqual([1]);
    expect(projector.health()).toMatchObject({ state: 'stopped', checkpoint: 1, failure: { kind: 'apply', position: 2, attempts: 3 } });

    await projector.start();
    await until(() => (projector.health().failure?.attempts ?? 0) >= 6);
    expect(projector.health()).toMatchObject({
      state: 'failing',
      checkpoint: 1,
      failure: { position: 2, since: '2026-05-01T00:00:00.000Z' },
    });
    store.poisoned.clear();
    expect(await projector.waitFor(logPosition(3))).toBe(true);
    expect(store.applied).toEqual([1, 2, 3]);
    await projector.stop();
  });

  it('retries while the store does not answer, reports itself failing meanwhile, and tells onHealth', async () => {
    const log = new MemoryLog();
    const store = new FakeStore();
    const told: Array<string | undefined> = [];
    const projector = projectorOf(log, store, recordingLogger(), {
      ...fast,
      onHealth: (health) => told.push(health.failure?.kind),
    });
    await projector.start();
    store.down = true;
    const event = log.append('provider-10000001', 'TokenIssued');
    while (store.calls < 8) await new Promise((r) => setTimeout(r, 1));
    expect(projector.health()).toMatchObject({
      state: 'failing',
      failure: { kind: 'apply', stream_id: 'provider-10000001', revision: 0, type: 'TokenIssued', position: 1 },
    });
    store.down = false;
    expect(await projector.waitFor(event.position)).toBe(true);
    expect(projector.health()).toMatchObject({ state: 'live', failure: null, checkpoint: 1 });
    expect(told[0]).toBe('apply');
    expect(told.at(-1)).toBeUndefined();
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
  it('stops at start on a checkpoint beyond the log head (a log restored under its read models), naming the rebuild', async () => {
    const log = new MemoryLog();
    log.append('trainee-A');
    const store = new FakeStore();
    store.position = 5;
    const logger = recordingLogger();
    const fatal: PermanentSubscriptionError[] = [];
    const projector = projectorOf(log, store, logger, { ...fast, onFatal: (e) => fatal.push(e) });
    const thrown = await projector.catchUp().catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(CheckpointAheadOfLog);
    expect((thrown as Error).message).toBe(
      "the projector's checkpoint 5 is beyond the log's head 1: the log was restored or replaced under it; " +
        'rebuild each projection from the log (admin projections rebuild trainees, admin projections rebuild providers)',
    );
    await projector.start();

    // A restart would meet the same checkpoint: the process is not told to exit, and stays up, not ready, saying why.
    expect(fatal).toEqual([]);
    expect(projector.health()).toMatchObject({
      state: 'failed',
      failure: { kind: 'subscription', code: CHECKPOINT_AHEAD_OF_LOG, message: (thrown as Error).message },
    });
    expect(logger.errors.map(([m]) => m)).toEqual(['projector subscription cannot go on; the projector has stopped']);
    expect(log.subscriptions).toBe(0);
    const readiness = await assessReadiness({
      storedLog: log.asStore(),
      projector: projector.health(),
      checkpoint: projector.checkpoint,
      maxLagSeconds: 30,
      behindUntil: LOG_START,
    });
    expect(readiness.reasons).toEqual([
      "the read models' checkpoint is beyond the event log's head (the log was restored older than them): rebuild the projections (see the logs)",
    ]);
    // New events take the positions it counts as done: it never reaches them.
    for (let i = 0; i < 5; i++) log.append('trainee-B');
    expect(store.applied).toEqual([]);
  });

  it('starts on a checkpoint at the log head', async () => {
    const log = new MemoryLog();
    log.append('trainee-A');
    const store = new FakeStore();
    store.position = 1;
    const projector = projectorOf(log, store, recordingLogger());
    await projector.start();
    log.append('trainee-B');
    await until(() => store.applied.length === 1);
    expect(store.applied).toEqual([2]);
  });

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

describe('Readiness of a projector that cannot apply an event (docs/operations.md "Health")', () => {
  const readinessOf = (projector: Projector, faults: string[] = []) =>
    assessReadiness({
      storedLog: new MemoryLog().asStore(),
      projector: projector.health(),
      checkpoint: LOG_START,
      maxLagSeconds: 30,
      behindUntil: LOG_START,
      faults,
      now: new Date('2026-05-01T00:00:00Z'),
    });

  it('is not ready, and names the storage fault when the error is one, once', async () => {
    const log = new MemoryLog();
    const store = new FakeStore();
    store.applyBatch = async () => {
      throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    };
    log.append('trainee-A');
    const projector = projectorOf(log, store, recordingLogger());
    await projector.start();
    await until(() => projector.health().failure !== null);
    const stuck =
      'the projector cannot apply an event and retries it; nothing after it is projected until it applies (see the logs and `admin projections status`)';
    expect(await readinessOf(projector)).toEqual({ ready: false, reasons: ['the data directory is full', stuck] });
    expect(await readinessOf(projector, ['the data directory is full'])).toEqual({
      ready: false,
      reasons: ['the data directory is full', stuck],
    });
    await projector.stop();
  });

  it('names no storage fault for an error of the event itself', async () => {
    const log = new MemoryLog();
    const store = new FakeStore();
    store.poisoned.add(log.append('trainee-A').position);
    const projector = projectorOf(log, store, recordingLogger());
    await projector.start();
    await until(() => projector.health().failure !== null);
    expect((await readinessOf(projector)).reasons).toEqual([
      'the projector cannot apply an event and retries it; nothing after it is projected until it applies (see the logs and `admin projections status`)',
    ]);
    await projector.stop();
  });
});

describe('Projector onApplied', () => {
  it('is told the events it stored, in batches and one by one, never one it could not apply; what it throws is ignored', async () => {
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
    // The batch failed on position 2: its events were applied one by one, up to 2.
    expect(await projector.catchUp()).toBe(1);
    expect(told).toEqual([[1]]);
    store.poisoned.clear();
    expect(await projector.catchUp()).toBe(3);
    expect(told).toEqual([[1], [2], [3]]);
    expect(store.applied).toEqual([1, 2, 3]);
  });
});
