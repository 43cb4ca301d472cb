import { CursorCodec } from '@app/changes';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteEventStore, type SqliteEventStore, SqliteReadModel, SqliteWebhookOutbox } from '@app/stores/sqlite';
import { PROJECTED_STREAMS, Projector } from '@app/runtime/projector';
import { writeHistories } from '../../../test/support/history-generator';
import { CHECKPOINT_SAVE_MS, WebhookDispatcher } from './webhook-dispatcher';
import { resetOutboxToLog } from './outbox-reset';
import { logPosition } from '@app/event-sourcing';
import { SealedSecrets, WebhookOperations } from '@app/webhooks/write';

/** The secrets' sealing of these tests: one key for the operations and the dispatcher. */
const SECRETS = new SealedSecrets(Buffer.alloc(32, 2));

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Endpoint operations on `store` whose provider is always found, sealing with {@link SECRETS}. */
function operationsOn(store: SqliteEventStore): WebhookOperations {
  return new WebhookOperations(
    store,
    { getProvider: async (ukprn) => ({ ukprn, name: 'P', created_at: '' }) },
    { allowHttp: true, allowPrivate: true },
    SECRETS,
  );
}

describe('WebhookDispatcher ingest (docs/change-feed.md "How deliveries are kept")', () => {
  let dir: string;
  let store: SqliteEventStore;
  let readModel: SqliteReadModel;
  let outbox: SqliteWebhookOutbox;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dispatcher-'));
    store = openSqliteEventStore(dir);
    readModel = SqliteReadModel.open(dir);
    outbox = SqliteWebhookOutbox.open(dir);
  });

  afterEach(async () => {
    outbox.close();
    readModel.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const project = () => new Projector(store, readModel, quiet).catchUp();

  it('skips the changes unread while no endpoint is active, then enqueues only the changes after an endpoint was added', async () => {
    await writeHistories(store, { trainees: 3, changesEach: 1, providers: 1, prefix: 'B' });
    await project();
    const dispatcher = new WebhookDispatcher({ eventStore: store, storedLog: store }, readModel, outbox, quiet, {
      policy: { allowPrivate: true },
      projectedStreams: PROJECTED_STREAMS,
      cursors: new CursorCodec(Buffer.alloc(32, 1)),
      secrets: SECRETS,
    });
    const read = jest.spyOn(readModel, 'changesBetween');
    expect(await dispatcher.ingestOnce()).toBe(0);
    expect(read).not.toHaveBeenCalled();
    expect(await outbox.checkpoint()).toBe(await store.headPosition());

    const ops = operationsOn(store);
    const endpoint = await ops.add({ ukprn: '10000100', url: 'http://127.0.0.1:9/hooks', eventTypes: [] });
    const addedAt = await store.headPosition();
    await writeHistories(store, { trainees: 2, changesEach: 1, providers: 1, prefix: 'A' });
    await project();
    while ((await dispatcher.ingestOnce()) > 0);
    expect(read).toHaveBeenCalled();
    const deliveries = await outbox.deliveries(endpoint.endpoint_id, 1000);
    const after = (await store.readAll({ fromPosition: addedAt, maxCount: 1000, filter: { streamPrefixes: ['trainee-'] } })).map(
      (e) => e.position,
    );
    expect(deliveries.map((d) => d.position).sort((a, b) => a - b)).toEqual(after);
    expect(await outbox.checkpoint()).toBe(await store.headPosition());
  });

  it('stores a checkpoint with nothing else to store at most every CHECKPOINT_SAVE_MS, and when stopped', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const dispatcher = new WebhookDispatcher({ eventStore: store, storedLog: store }, readModel, outbox, quiet, {
      policy: { allowPrivate: true },
      projectedStreams: PROJECTED_STREAMS,
      cursors: new CursorCodec(Buffer.alloc(32, 1)),
      secrets: SECRETS,
      clock: () => new Date(now),
    });
    const stored = jest.spyOn(outbox, 'ingest');
    const step = async (prefix: string): Promise<number> => {
      await writeHistories(store, { trainees: 1, changesEach: 1, providers: 1, prefix });
      await project();
      await dispatcher.ingestOnce();
      expect(dispatcher.checkpoint).toBe(await store.headPosition());
      return store.headPosition();
    };
    // The first step stores (nothing was stored yet), the next within the interval does not.
    const first = await step('C');
    expect(stored).toHaveBeenCalledTimes(1);
    await step('D');
    expect(stored).toHaveBeenCalledTimes(1);
    expect(await outbox.checkpoint()).toBe(first);

    now += CHECKPOINT_SAVE_MS;
    const third = await step('E');
    expect(stored).toHaveBeenCalledTimes(2);
    expect(await outbox.checkpoint()).toBe(third);

    await step('F');
    expect(stored).toHaveBeenCalledTimes(2);
    await dispatcher.stop();
    expect(stored).toHaveBeenCalledTimes(3);
    expect(await outbox.checkpoint()).toBe(await store.headPosition());
  });

  it('does not start on a checkpoint beyond the log (a restore out of order) until the outbox is reset to the log', async () => {
    const ops = operationsOn(store);
    const kept = await ops.add({ ukprn: '10000100', url: 'http://127.0.0.1:9/hooks', eventTypes: [] });
    const head = await store.headPosition();
    const beyond = logPosition(head + 50);
    const record = (id: string, added: number) => ({
      endpoint_id: id,
      ukprn: '10000100',
      url: 'http://127.0.0.1:9/hooks',
      event_types: [],
      api_version: 'v2026.1',
      secret: 'sealed2.1.x',
      status: 'disabled' as const,
      added_position: logPosition(added),
      disabled_reason: 'disabled after the backup',
    });
    const delivery = { trainee_id: 'T', message_id: 'm', payload: '{}', next_attempt_at: 0 };
    // What a MongoDB newer than its log holds: an endpoint and deliveries of events the log no longer has.
    await outbox.ingest({
      endpoints: [record(kept.endpoint_id, head), record('gone', head + 10)],
      deliveries: [{ ...delivery, delivery_id: `gone.${head + 20}`, endpoint_id: 'gone', position: logPosition(head + 20) }],
      abandonFor: [],
      at: 0,
      checkpoint: beyond,
    });
    const errors: unknown[][] = [];
    const options = {
      policy: { allowPrivate: true },
      projectedStreams: PROJECTED_STREAMS,
      cursors: new CursorCodec(Buffer.alloc(32, 1)),
      secrets: SECRETS,
    };
    const dispatcher = new WebhookDispatcher(
      { eventStore: store, storedLog: store },
      readModel,
      outbox,
      { ...quiet, error: (...a) => errors.push(a) },
      options,
    );
    await dispatcher.start();
    await dispatcher.stop();
    expect(dispatcher.aheadOfLog?.message).toBe(
      `the webhook dispatcher's checkpoint ${beyond} is beyond the log's head ${head}: the log was restored or replaced under it; ` +
        'reset the webhook outbox to the log (admin webhook reset-outbox), with the service stopped',
    );
    expect(errors.map(([m]) => m)).toEqual(['webhook dispatcher not started: its checkpoint is beyond the log']);
    expect(await outbox.checkpoint()).toBe(beyond);

    expect(await resetOutboxToLog(outbox, store)).toEqual({ from: beyond, head, reset: true, endpoints: 1, deliveriesDropped: 1 });
    expect(await outbox.checkpoint()).toBe(head);
    expect(await outbox.endpoints()).toEqual([
      expect.objectContaining({ endpoint_id: kept.endpoint_id, status: 'active', added_position: head }),
    ]);
    expect(await resetOutboxToLog(outbox, store)).toEqual({ from: head, head, reset: false, endpoints: 0, deliveriesDropped: 0 });

    await writeHistories(store, { trainees: 1, changesEach: 1, providers: 1, prefix: 'R' });
    await project();
    const again = new WebhookDispatcher({ eventStore: store, storedLog: store }, readModel, outbox, quiet, options);
    expect(again.aheadOfLog).toBeNull();
    while ((await again.ingestOnce()) > 0);
    const traineeEvents = await store.readAll({ fromPosition: head, maxCount: 100, filter: { streamPrefixes: ['trainee-'] } });
    expect((await outbox.deliveries(kept.endpoint_id, 100)).map((d) => d.position).sort((a, b) => a - b)).toEqual(
      traineeEvents.map((e) => e.position),
    );
  });
});
