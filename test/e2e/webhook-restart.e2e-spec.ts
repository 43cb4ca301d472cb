import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { traineeStreamId } from '@app/trainees/decider';
import { exampleRegistration } from '@app/trainees/decider/testing/trainee-events';
import { toEventData, newEventId } from '@app/event-sourcing';
import { openSqliteEventStore, type SqliteEventStore } from '@app/stores/sqlite';
import { messageIdOf } from '@app/webhooks/delivery';
import { WebhookOperations } from '@app/webhooks/write';
import { loadServiceKey, sealedSecretsOf } from '@app/runtime/process';
import { TsProcess } from '../support/processes';
import { WebhookReceiver } from '../support/webhook-receiver';

const UKPRN = '10000001';

/**
 * Appends the registration of trainee `T<n>` of {@link UKPRN} (its placement, degree and submission
 * included): the example trainee with first names `W<n>` and email `w<n>@example.com`.
 */
async function register(store: SqliteEventStore, n: number): Promise<void> {
  const events = exampleRegistration({
    trainee_id: `T${n}`,
    ukprn: UKPRN,
    at: '2026-01-01T00:00:00.000Z',
    details: { first_names: `W${n}`, email: `w${n}@example.com` },
    placement_id: `A${n}`,
    degree_id: `B${n}`,
  });
  await store.appendToStream(traineeStreamId(`T${n}`), toEventData(events, { occurredAt: new Date().toISOString() }, newEventId), {
    expectedRevision: 'no_stream',
  });
}

describe('the webhook dispatcher killed mid-delivery (docs/change-feed.md "Webhooks": at least once)', () => {
  let dir: string;
  let store: SqliteEventStore;
  let receiver: WebhookReceiver;
  const processes: TsProcess[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'webhook-restart-'));
    // The sandbox key first, as the service makes it: never over a log that exists.
    loadServiceKey({ dataDir: dir, dataKeyFile: null });
    store = openSqliteEventStore(dir);
  });

  afterEach(async () => {
    for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await Promise.all(processes.map((p) => p.exited));
    await receiver?.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('repeats after a restart only the delivery that was in flight when the process was killed (SIGKILL)', async () => {
    let down = true;
    // The sixth request is held unanswered: the process is killed while it is in flight.
    receiver = await WebhookReceiver.start((n) => (down && n === 6 ? 'hang' : 204));
    const ops = new WebhookOperations(
      store,
      { getProvider: async (ukprn) => ({ ukprn, name: 'A provider', created_at: '2026-01-01T00:00:00.000Z' }) },
      { allowHttp: true, allowPrivate: true },
      // The projector process started below reads the same sandbox key from the data dir.
      sealedSecretsOf(loadServiceKey({ dataDir: dir, dataKeyFile: null }).key),
    );
    const endpoint = await ops.add({ ukprn: UKPRN, url: receiver.url, eventTypes: [] });
    for (let n = 0; n < 5; n++) await register(store, n);
    const changes = (await store.readAll({ maxCount: 1000, filter: { streamPrefixes: ['trainee-'] } })).map((e) =>
      messageIdOf(endpoint.endpoint_id, e.position),
    );
    expect(changes.length).toBeGreaterThan(10);

    const env = { DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'warn', WEBHOOK_CONCURRENCY: '1', REGISTRY_TRN_DELAY_MS: '3600000' };
    const first = TsProcess.start('dist/apps/projector/src/main.js', env);
    processes.push(first);
    await receiver.until(() => receiver.received.length >= 6, 30_000);
    first.child.kill('SIGKILL');
    await first.exited;
    const inFlight = receiver.received[5].headers['webhook-id'];
    down = false;

    const second = TsProcess.start('dist/apps/projector/src/main.js', env);
    processes.push(second);
    const acknowledgedIds = () => new Set(receiver.received.filter((r) => r.status === 204).map((r) => r.headers['webhook-id']));
    await receiver.until(() => acknowledgedIds().size >= changes.length, 30_000);

    const ids = receiver.received.map((r) => r.headers['webhook-id'] as string);
    expect([...acknowledgedIds()].sort()).toEqual([...changes].sort());
    const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(repeated).toEqual([inFlight]);
    // In log order: the dispatcher resumed where it stopped.
    expect(ids.filter((id, i) => ids.indexOf(id) === i)).toEqual(changes);
  });
});
