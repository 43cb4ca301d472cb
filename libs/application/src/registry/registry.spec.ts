import { commandFromWire } from '@app/contract';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import v2025Example from '../../../../test/fixtures/post-trainee-v2025.0.json';
import { FakeRegistry } from '../../../../test/support/fake-registry';
import { decide, traineeStreamId } from '@app/domain';
import { SqliteEventStore } from '@app/event-store';
import { SqliteReadModel, toEventData } from '@app/read-model';
import { HttpRegistry } from './http-registry';
import { RegistryUnavailable, type AwardRequest, type TeacherRegistry, type TrnRequest } from './registry.port';
import { REGISTRY_PM_CHECKPOINT, RegistryProcessManager } from './registry-process-manager';
import { SandboxRegistry, sandboxTrn } from './sandbox-registry';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The sandbox registry, counting its calls and failing the first `failFirst` TRN requests. */
class CountingRegistry implements TeacherRegistry {
  trnCalls: TrnRequest[] = [];
  awardCalls: AwardRequest[] = [];
  constructor(private readonly inner: TeacherRegistry, private failFirst = 0) {}
  async requestTrn(r: TrnRequest, signal?: AbortSignal) {
    this.trnCalls.push(r);
    if (this.failFirst-- > 0) throw new RegistryUnavailable('registry down');
    return this.inner.requestTrn(r, signal);
  }
  async recommendForAward(r: AwardRequest, signal?: AbortSignal) {
    this.awardCalls.push(r);
    return this.inner.recommendForAward(r, signal);
  }
}

async function register(store: SqliteEventStore, id: string): Promise<void> {
  const events = decide(
    commandFromWire({ type: 'RegisterTrainee', trainee_id: id, ukprn: '10000001', version: 'v2025.0', input: JSON.parse(JSON.stringify(v2025Example.data)), now: '2026-01-01T00:00:00.000Z', new_ids: ['P', 'D'], duplicate_candidates: [] }),
    { exists: false },
  );
  await store.appendToStream(traineeStreamId(id), toEventData(events, { occurredAt: '2026-01-01T00:00:00.000Z' }), { expectedRevision: 'no_stream' });
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400 && !(await check()); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('RegistryProcessManager (driven by the event log)', () => {
  let dir: string;
  let store: SqliteEventStore;
  let readModel: SqliteReadModel;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'registry-pm-'));
    store = new SqliteEventStore({ filename: join(dir, 'events.sqlite') });
    readModel = new SqliteReadModel(join(dir, 'rm.sqlite'));
  });
  afterEach(async () => {
    readModel.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const trnOf = async (id: string) => (await store.readStream(traineeStreamId(id))).filter((e) => e.type === 'TrnIssued');

  it('records one TrnIssued per submitted trainee, keeps its checkpoint, and repeats nothing after a restart', async () => {
    const registry = new CountingRegistry(new SandboxRegistry());
    const pm = new RegistryProcessManager(store, readModel, registry, quiet);
    await pm.start();
    await register(store, 'T1');
    await register(store, 'T2');
    await until(async () => (await trnOf('T2')).length === 1);
    await pm.stop();
    expect((await trnOf('T1')).map((e) => (e.data as { trn: string }).trn)).toEqual([sandboxTrn('T1')]);
    expect(registry.trnCalls.map((c) => c.trainee_id)).toEqual(['T1', 'T2']);
    expect(await readModel.readCheckpoint(REGISTRY_PM_CHECKPOINT)).toBe(pm.checkpoint);

    const again = new RegistryProcessManager(store, readModel, registry, quiet);
    await again.start();
    await new Promise((r) => setTimeout(r, 200));
    await again.stop();
    expect(registry.trnCalls).toHaveLength(2);
    expect(await trnOf('T1')).toHaveLength(1);
  });

  it('retries a registry that is down instead of skipping the event', async () => {
    const registry = new CountingRegistry(new SandboxRegistry(), 2);
    const pm = new RegistryProcessManager(store, readModel, registry, quiet, { maxBackoffMs: 20 });
    await pm.start();
    await register(store, 'T1');
    await until(async () => (await trnOf('T1')).length === 1);
    await pm.stop();
    expect(registry.trnCalls).toHaveLength(3);
    expect(new Set(registry.trnCalls.map((c) => c.idempotency_key)).size).toBe(1);
  });

  it('stopping during a sandbox delay leaves the event to the next start, which handles it once', async () => {
    const slow = new CountingRegistry(new SandboxRegistry({ trnDelayMs: 60_000 }));
    const pm = new RegistryProcessManager(store, readModel, slow, quiet);
    await pm.start();
    await register(store, 'T1');
    await until(async () => slow.trnCalls.length === 1);
    await pm.stop();
    expect(await trnOf('T1')).toHaveLength(0);
    expect(await readModel.readCheckpoint(REGISTRY_PM_CHECKPOINT)).toBe(0);
    const fast = new CountingRegistry(new SandboxRegistry());
    const next = new RegistryProcessManager(store, readModel, fast, quiet);
    await next.start();
    await until(async () => (await trnOf('T1')).length === 1);
    await next.stop();
    expect(fast.trnCalls.map((c) => c.idempotency_key)).toEqual([slow.trnCalls[0].idempotency_key]);
  });
});

describe('HttpRegistry (against a loopback stand-in of the registry API)', () => {
  const fake = new FakeRegistry();
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());

  const request: TrnRequest = { idempotency_key: 'k1', trainee_id: 'T1', provider_ukprn: '10000001', first_names: 'A', last_name: 'B', date_of_birth: '1990-01-01', email: 'a@example.com' };

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
