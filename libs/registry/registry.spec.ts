import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeRegistry } from '../../test/support/fake-registry';
import { traineeStreamId } from '@app/trainees/decider';
import { exampleRegistration } from '@app/trainees/decider/testing/trainee-events';
import { logPosition, toEventData, type EventStore, newEventId, PermanentSubscriptionError, type Subscription } from '@app/event-sourcing';
import { SqliteConsumerCheckpoints, SqliteEventStore } from '@app/stores/sqlite';
import { HttpRegistry } from './http-registry';
import { RegistryUnavailable, type AwardRequest, type RegistryCallContext, type TeacherRegistry, type TrnRequest } from './registry.port';
import { eventTime, REGISTRY_PM_CHECKPOINT, RegistryProcessManager } from './registry-process-manager';
import { SandboxRegistry, sandboxDueAt, sandboxTrn, sandboxWaitMs } from './sandbox-registry';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The sandbox registry, counting its calls and failing the first `failFirst` TRN requests. */
class CountingRegistry implements TeacherRegistry {
  trnCalls: TrnRequest[] = [];
  awardCalls: AwardRequest[] = [];
  trnContexts: (RegistryCallContext | undefined)[] = [];
  constructor(
    private readonly inner: TeacherRegistry,
    private failFirst = 0,
  ) {}
  async requestTrn(r: TrnRequest, signal?: AbortSignal, context?: RegistryCallContext) {
    this.trnCalls.push(r);
    this.trnContexts.push(context);
    if (this.failFirst-- > 0) throw new RegistryUnavailable('registry down');
    return this.inner.requestTrn(r, signal, context);
  }
  async recommendForAward(r: AwardRequest, signal?: AbortSignal, context?: RegistryCallContext) {
    this.awardCalls.push(r);
    return this.inner.recommendForAward(r, signal, context);
  }
}

/** A sandbox registry that answers at once. */
const instant = () => new SandboxRegistry({ trnDelayMs: 0, awardDelayMs: 0 });

/** Registers (and so submits for a TRN) trainee `id` at instant `at` (ISO 8601 UTC): the example trainee, its placement P and degree D. */
async function register(store: SqliteEventStore, id: string, at = '2026-01-01T00:00:00.000Z'): Promise<void> {
  const events = exampleRegistration({ trainee_id: id, ukprn: '10000001', at, placement_id: 'P', degree_id: 'D' });
  await store.appendToStream(traineeStreamId(id), toEventData(events, { occurredAt: at }, newEventId), { expectedRevision: 'no_stream' });
}

/** A virtual clock: `sleep` records the wait and moves the clock on instead of waiting. */
class VirtualTime {
  readonly sleeps: number[] = [];
  constructor(private ms: number) {}
  readonly clock = () => new Date(this.ms);
  readonly sleep = async (ms: number, signal?: AbortSignal) => {
    if (signal?.aborted) throw new Error('aborted');
    this.sleeps.push(ms);
    this.ms += ms;
  };
}

/** `store`, but its next subscriptions fail at once with `errors`, one each, in order. */
function failingSubscriptions(store: EventStore, errors: Error[]): EventStore & { subscribed: number } {
  const wrapped = Object.create(store) as EventStore & { subscribed: number };
  wrapped.subscribed = 0;
  wrapped.subscribeToAll = (options) => {
    wrapped.subscribed++;
    const error = errors.shift();
    if (!error) return store.subscribeToAll(options);
    const failing: Subscription = {
      unsubscribe: async () => undefined,
      [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }),
    };
    return failing;
  };
  return wrapped;
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400 && !(await check()); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('RegistryProcessManager (driven by the event log)', () => {
  let dir: string;
  let store: SqliteEventStore;
  let checkpoints: SqliteConsumerCheckpoints;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'registry-pm-'));
    store = new SqliteEventStore({ filename: join(dir, 'events.sqlite') });
    checkpoints = new SqliteConsumerCheckpoints(join(dir, 'state.sqlite'));
  });
  afterEach(async () => {
    checkpoints.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const trnOf = async (id: string) => (await store.readStream(traineeStreamId(id))).filter((e) => e.type === 'TrnIssued');

  it('records one TrnIssued per submitted trainee, keeps its checkpoint, and repeats nothing after a restart', async () => {
    const registry = new CountingRegistry(instant());
    const pm = new RegistryProcessManager(store, checkpoints, registry, quiet);
    await pm.start();
    await register(store, 'T1');
    await register(store, 'T2');
    await until(async () => (await trnOf('T2')).length === 1);
    await pm.stop();
    expect((await trnOf('T1')).map((e) => (e.data as { trn: string }).trn)).toEqual([sandboxTrn('T1')]);
    expect(registry.trnCalls.map((c) => c.trainee_id)).toEqual(['T1', 'T2']);
    expect(await checkpoints.readCheckpoint(REGISTRY_PM_CHECKPOINT)).toBe(pm.checkpoint);

    const again = new RegistryProcessManager(store, checkpoints, registry, quiet);
    await again.start();
    await new Promise((r) => setTimeout(r, 200));
    await again.stop();
    expect(registry.trnCalls).toHaveLength(2);
    expect(await trnOf('T1')).toHaveLength(1);
  });

  it('after a log restored older than its checkpoint: starts again from the log, asking only for outcomes the log lacks', async () => {
    const registry = new CountingRegistry(instant());
    const pm = new RegistryProcessManager(store, checkpoints, registry, quiet);
    await pm.start();
    await register(store, 'T1');
    await until(async () => (await trnOf('T1')).length === 1);
    await pm.stop();
    // The restored log: T1 with its TRN, and T2 submitted but not yet answered; the checkpoint kept from a later log.
    await register(store, 'T2');
    await checkpoints.writeCheckpoint(REGISTRY_PM_CHECKPOINT, logPosition((await store.headPosition()) + 1000));
    const warnings: string[] = [];
    const again = new RegistryProcessManager(store, checkpoints, registry, { ...quiet, warn: (m: string) => warnings.push(m) });
    await again.start();
    await until(async () => (await trnOf('T2')).length === 1);
    await again.stop();
    expect(warnings).toContain("registry process manager's checkpoint is beyond the log's head: handling the log again from its start");
    expect(registry.trnCalls.map((c) => c.trainee_id)).toEqual(['T1', 'T2']);
    expect(await trnOf('T1')).toHaveLength(1);
    expect(await checkpoints.readCheckpoint(REGISTRY_PM_CHECKPOINT)).toBe(await store.headPosition());
  });

  it('retries a registry that is down instead of skipping the event', async () => {
    const registry = new CountingRegistry(instant(), 2);
    const pm = new RegistryProcessManager(store, checkpoints, registry, quiet, { maxBackoffMs: 20 });
    await pm.start();
    await register(store, 'T1');
    await until(async () => (await trnOf('T1')).length === 1);
    await pm.stop();
    expect(registry.trnCalls).toHaveLength(3);
    expect(new Set(registry.trnCalls.map((c) => c.idempotency_key)).size).toBe(1);
  });

  it('resubscribes from its checkpoint after its subscription fails, and says so', async () => {
    const errors: unknown[] = [];
    const log = { ...quiet, error: (_: string, context?: Record<string, unknown>) => errors.push(context?.error) };
    const failing = failingSubscriptions(store, [new Error('connection reset')]);
    const pm = new RegistryProcessManager(failing, checkpoints, new CountingRegistry(instant()), log, { maxBackoffMs: 20 });
    await pm.start();
    await register(store, 'T1');
    await until(async () => (await trnOf('T1')).length === 1);
    await pm.stop();
    expect(await trnOf('T1')).toHaveLength(1);
    expect(failing.subscribed).toBe(2);
    expect(errors).toEqual(['Error: connection reset']);
  });

  it('stops and tells onFatal when its subscription cannot go on', async () => {
    const fatal: Error[] = [];
    const failing = failingSubscriptions(store, [new PermanentSubscriptionError('access denied')]);
    const pm = new RegistryProcessManager(failing, checkpoints, new CountingRegistry(instant()), quiet, {
      maxBackoffMs: 20,
      onFatal: (e) => fatal.push(e),
    });
    await pm.start();
    await until(async () => fatal.length === 1);
    await new Promise((r) => setTimeout(r, 50));
    await pm.stop();
    expect(fatal.map((e) => e.message)).toEqual(['access denied']);
    expect(failing.subscribed).toBe(1);
  });

  it('stopping during a sandbox delay leaves the event to the next start, which handles it once', async () => {
    const slow = new CountingRegistry(new SandboxRegistry({ trnDelayMs: 60_000 }));
    const pm = new RegistryProcessManager(store, checkpoints, slow, quiet);
    await pm.start();
    await register(store, 'T1', new Date().toISOString());
    await until(async () => slow.trnCalls.length === 1);
    await pm.stop();
    expect(await trnOf('T1')).toHaveLength(0);
    expect(await checkpoints.readCheckpoint(REGISTRY_PM_CHECKPOINT)).toBe(0);
    const fast = new CountingRegistry(instant());
    const next = new RegistryProcessManager(store, checkpoints, fast, quiet);
    await next.start();
    await until(async () => (await trnOf('T1')).length === 1);
    await next.stop();
    expect(fast.trnCalls.map((c) => c.idempotency_key)).toEqual([slow.trnCalls[0].idempotency_key]);
  });

  it('after a restart, handles at once an event whose due time has passed meanwhile', async () => {
    const submittedAt = new Date();
    const slow = new CountingRegistry(new SandboxRegistry({ trnDelayMs: 60_000 }));
    const pm = new RegistryProcessManager(store, checkpoints, slow, quiet);
    await pm.start();
    await register(store, 'T1', submittedAt.toISOString());
    await until(async () => slow.trnCalls.length === 1);
    await pm.stop();
    expect(await trnOf('T1')).toHaveLength(0);

    // The process comes back 61 s after the submission (by its clock; real timers, no fake sleep).
    const later = () => new Date(submittedAt.getTime() + 61_000);
    const restarted = new CountingRegistry(new SandboxRegistry({ trnDelayMs: 60_000, clock: later }));
    const next = new RegistryProcessManager(store, checkpoints, restarted, quiet, { clock: later });
    await next.start();
    await until(async () => (await trnOf('T1')).length === 1);
    await next.stop();
    expect((await trnOf('T1')).map((e) => (e.data as { trn: string }).trn)).toEqual([sandboxTrn('T1')]);
    expect(restarted.trnContexts).toEqual([{ requestedAt: submittedAt.toISOString() }]);
  });

  it('issues the TRNs of trainees submitted together at their common due time, not one delay after another', async () => {
    const t0 = '2026-03-02T09:00:00.000Z';
    const time = new VirtualTime(Date.parse(t0));
    const ids = ['T1', 'T2', 'T3', 'T4', 'T5'];
    for (const id of ids) await register(store, id, t0);
    const registry = new CountingRegistry(new SandboxRegistry({ trnDelayMs: 60_000, clock: time.clock, sleep: time.sleep }));
    const pm = new RegistryProcessManager(store, checkpoints, registry, quiet, { clock: time.clock });
    await pm.start();
    await until(async () => (await trnOf('T5')).length === 1);
    await pm.stop();
    // Only the first waits (the whole minute); the others are due by then.
    expect(time.sleeps).toEqual([60_000, 0, 0, 0, 0]);
    const issuedAt = await Promise.all(ids.map(async (id) => (await trnOf(id)).map((e) => e.metadata.occurredAt)));
    expect(issuedAt).toEqual(ids.map(() => ['2026-03-02T09:01:00.000Z']));
    expect(registry.trnContexts).toEqual(ids.map(() => ({ requestedAt: t0 })));
  });
});

describe("the sandbox registry's timing (docs/reference/API-FACTS.md §12.1, §12.5)", () => {
  const trnRequest: TrnRequest = {
    idempotency_key: 'k1',
    trainee_id: 'T1',
    provider_ukprn: '10000001',
    first_names: 'A',
    last_name: 'B',
    date_of_birth: '1990-01-01',
    email: 'a@example.com',
  };

  it('is due the delay after the instant the request arose, whatever its offset', () => {
    expect(sandboxDueAt('2026-03-02T09:59:30.000Z', 60_000).toISOString()).toBe('2026-03-02T10:00:30.000Z');
    expect(sandboxDueAt('2026-03-02T10:59:30+01:00', 60_000).toISOString()).toBe('2026-03-02T10:00:30.000Z');
    expect(sandboxDueAt('2026-03-02T09:59:30.000Z', 0).toISOString()).toBe('2026-03-02T09:59:30.000Z');
    expect(() => sandboxDueAt('yesterday', 60_000)).toThrow(RangeError);
  });

  it('waits only the time left to the due time: none once it has passed, never more than the delay', () => {
    const now = new Date('2026-03-02T10:00:00.000Z');
    expect(sandboxWaitMs('2026-03-02T09:59:45.000Z', 60_000, now)).toBe(45_000);
    expect(sandboxWaitMs('2026-03-02T09:59:00.000Z', 60_000, now)).toBe(0);
    expect(sandboxWaitMs('2026-03-02T08:00:00.000Z', 60_000, now)).toBe(0);
    expect(sandboxWaitMs('2026-03-02T10:05:00.000Z', 60_000, now)).toBe(60_000);
    expect(sandboxWaitMs(undefined, 60_000, now)).toBe(60_000);
    expect(sandboxWaitMs('not a time', 60_000, now)).toBe(60_000);
    expect(sandboxWaitMs('2026-03-02T10:00:00.000Z', 0, now)).toBe(0);
  });

  it('answers a TRN request and an award when due, by its clock', async () => {
    const time = new VirtualTime(Date.parse('2026-03-02T10:00:00.000Z'));
    const registry = new SandboxRegistry({ trnDelayMs: 60_000, awardDelayMs: 30_000, clock: time.clock, sleep: time.sleep });
    await expect(registry.requestTrn(trnRequest, undefined, { requestedAt: '2026-03-02T09:59:40.000Z' })).resolves.toEqual({
      trn: sandboxTrn('T1'),
    });
    expect(time.clock().toISOString()).toBe('2026-03-02T10:00:40.000Z');
    const award = { idempotency_key: 'k2', trainee_id: 'T1', trn: sandboxTrn('T1'), outcome_date: '2026-03-01' };
    await expect(registry.recommendForAward(award, undefined, { requestedAt: '2026-03-02T10:00:30.000Z' })).resolves.toEqual({
      awarded_at: '2026-03-01T00:00:00.000Z',
    });
    expect(time.sleeps).toEqual([40_000, 20_000]);
  });

  it('defaults to one minute for both, and 0 answers at once', async () => {
    const time = new VirtualTime(Date.parse('2026-03-02T10:00:00.000Z'));
    const byDefault = new SandboxRegistry({ clock: time.clock, sleep: time.sleep });
    await byDefault.requestTrn(trnRequest);
    await byDefault.recommendForAward({ idempotency_key: 'k2', trainee_id: 'T1', trn: '1234567', outcome_date: '2026-03-01' });
    expect(time.sleeps).toEqual([60_000, 60_000]);
    const atOnce = new SandboxRegistry({ trnDelayMs: 0, awardDelayMs: 0, clock: time.clock, sleep: time.sleep });
    await atOnce.requestTrn(trnRequest);
    expect(time.sleeps).toEqual([60_000, 60_000, 0]);
  });

  it('abandons a pending wait when the signal aborts', async () => {
    const registry = new SandboxRegistry({ trnDelayMs: 60_000 });
    const abort = new AbortController();
    const pending = registry.requestTrn(trnRequest, abort.signal, { requestedAt: new Date().toISOString() });
    setTimeout(() => abort.abort(), 10);
    await expect(pending).rejects.toThrow('aborted');
  });

  it('refuses a delay that is not a whole number of ms from 0 to 2^31 − 1', () => {
    expect(() => new SandboxRegistry({ trnDelayMs: -1 })).toThrow(RangeError);
    expect(() => new SandboxRegistry({ awardDelayMs: 1.5 })).toThrow(RangeError);
    expect(() => new SandboxRegistry({ trnDelayMs: 2 ** 31 })).toThrow(RangeError);
    expect(() => new SandboxRegistry({ trnDelayMs: 2 ** 31 - 1 })).not.toThrow();
  });

  it("takes an event's time from its occurredAt metadata, else from its data's at", () => {
    expect(
      eventTime({ metadata: { schemaVersion: 1, occurredAt: '2026-03-02T10:00:00.000Z' }, data: { at: '2026-03-02T09:00:00.000Z' } }),
    ).toBe('2026-03-02T10:00:00.000Z');
    expect(eventTime({ metadata: { schemaVersion: 1, occurredAt: '' }, data: { at: '2026-03-02T09:00:00.000Z' } })).toBe(
      '2026-03-02T09:00:00.000Z',
    );
    expect(eventTime({ metadata: { schemaVersion: 1, occurredAt: '' }, data: {} })).toBeUndefined();
  });
});

describe('HttpRegistry (against a loopback stand-in of the registry API)', () => {
  const fake = new FakeRegistry();
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());

  const request: TrnRequest = {
    idempotency_key: 'k1',
    trainee_id: 'T1',
    provider_ukprn: '10000001',
    first_names: 'A',
    last_name: 'B',
    date_of_birth: '1990-01-01',
    email: 'a@example.com',
  };

  it('posts with the idempotency key and retries 503s with backoff', async () => {
    fake.failures['/trn-requests'] = [503, 503];
    const registry = new HttpRegistry(fake.url, { backoffMs: 5 });
    const before = fake.calls.length;
    await expect(registry.requestTrn(request)).resolves.toEqual({ trn: expect.stringMatching(/^\d{7}$/) });
    const calls = fake.calls.slice(before);
    expect(calls).toHaveLength(3);
    expect(calls.every((c) => c.idempotencyKey === 'k1')).toBe(true);
  });

  it('gives up on a 4xx at once (permanent) and after the last attempt on 5xx', async () => {
    fake.failures['/trn-requests'] = [400];
    await expect(new HttpRegistry(fake.url, { backoffMs: 5 }).requestTrn(request)).rejects.toThrow(/permanent: true/);
    fake.failures['/trn-requests'] = [500, 500];
    await expect(new HttpRegistry(fake.url, { backoffMs: 5, attempts: 2 }).requestTrn(request)).rejects.toThrow(RegistryUnavailable);
    fake.failures['/trn-requests'] = [];
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(() => new HttpRegistry('ftp://registry')).toThrow('REGISTRY_URL must be an http:// or https:// URL');
  });
});
