/**
 * The webhook dispatcher on the EventStoreDB adapter over the client stand-in
 * (libs/stores/eventstoredb/testing/client-stand-in.ts), where positions are sparse byte offsets and
 * a read from a position no event starts at is refused: the dispatcher's position and stored
 * checkpoint must always be positions the store gave (docs/change-feed.md "How deliveries are kept";
 * docs/DESIGN.md "Testing the EventStoreDB adapter without a server"). A stand-in, not the server.
 */
import { CursorCodec } from '@app/changes';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteReadModel, SqliteWebhookOutbox } from '@app/stores/sqlite';
import { EventStoreDbEventStore } from '@app/stores/eventstoredb';
import { EventStoreDbClientStandIn } from '@app/stores/eventstoredb/testing/client-stand-in';
import { PROJECTED_STREAMS, Projector } from '@app/runtime/projector';
import { SealedSecrets, WebhookOperations } from '@app/webhooks/write';
import { writeHistories } from '../../../test/support/history-generator';
import { WebhookDispatcher } from './webhook-dispatcher';
import { resetOutboxToLog } from './outbox-reset';

const SECRETS = new SealedSecrets(Buffer.alloc(32, 2));
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('WebhookDispatcher on the EventStoreDB adapter over the client stand-in', () => {
  let dir: string;
  let store: EventStoreDbEventStore;
  let readModel: SqliteReadModel;
  let outbox: SqliteWebhookOutbox;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dispatcher-stand-in-'));
    store = new EventStoreDbEventStore(new EventStoreDbClientStandIn().asClient());
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
  const dispatcherOn = () =>
    new WebhookDispatcher({ eventStore: store, storedLog: store }, readModel, outbox, quiet, {
      policy: { allowPrivate: true },
      projectedStreams: PROJECTED_STREAMS,
      cursors: new CursorCodec(Buffer.alloc(32, 1)),
      secrets: SECRETS,
    });
  const positions = async () => new Set((await store.readAll({ maxCount: 100_000 })).map((e) => e.position));

  it('keeps a checkpoint the store gave while the projector lags behind, and reads on from it', async () => {
    await writeHistories(store, { trainees: 2, changesEach: 1, providers: 1, prefix: 'A' });
    await project();
    await writeHistories(store, { trainees: 2, changesEach: 1, providers: 1, prefix: 'B' });
    const dispatcher = dispatcherOn();
    await dispatcher.ingestOnce();
    expect(await positions()).toContain(dispatcher.checkpoint);
    expect(await positions()).toContain(await outbox.checkpoint());
    // The next step reads the log from that checkpoint: a position no event starts at is refused.
    await dispatcher.ingestOnce();
    await project();
    while ((await dispatcher.ingestOnce()) > 0);
    expect(dispatcher.checkpoint).toBe(await store.headPosition());
  });

  it('enqueues one delivery per change after an endpoint was added, with the projector behind and catching up', async () => {
    const ops = new WebhookOperations(
      store,
      { getProvider: async (ukprn) => ({ ukprn, name: 'P', created_at: '' }) },
      { allowHttp: true, allowPrivate: true },
      SECRETS,
    );
    const endpoint = await ops.add({ ukprn: '10000100', url: 'http://127.0.0.1:9/hooks', eventTypes: [] });
    const addedAt = await store.headPosition();
    const dispatcher = dispatcherOn();
    await writeHistories(store, { trainees: 2, changesEach: 1, providers: 1, prefix: 'C' });
    while ((await dispatcher.ingestOnce()) > 0);
    await project();
    while ((await dispatcher.ingestOnce()) > 0);
    await writeHistories(store, { trainees: 1, changesEach: 2, providers: 1, prefix: 'D' });
    await project();
    while ((await dispatcher.ingestOnce()) > 0);
    const deliveries = await outbox.deliveries(endpoint.endpoint_id, 1000);
    const changes = await store.readAll({ fromPosition: addedAt, maxCount: 1000, filter: { streamPrefixes: ['trainee-'] } });
    expect(deliveries.map((d) => d.position).sort((a, b) => a - b)).toEqual(changes.map((e) => e.position));
    expect(await positions()).toContain(await outbox.checkpoint());
  });

  it('after a log restored older than the outbox: refuses to start, and a reset sets it to a head the store gave', async () => {
    const ops = (on: EventStoreDbEventStore) =>
      new WebhookOperations(
        on,
        { getProvider: async (ukprn) => ({ ukprn, name: 'P', created_at: '' }) },
        { allowHttp: true, allowPrivate: true },
        SECRETS,
      );
    const endpoint = await ops(store).add({ ukprn: '10000100', url: 'http://127.0.0.1:9/hooks', eventTypes: [] });
    await writeHistories(store, { trainees: 3, changesEach: 2, providers: 1, prefix: 'A' });
    await project();
    const first = dispatcherOn();
    while ((await first.ingestOnce()) > 0);
    const before = await outbox.checkpoint();

    // The restored log holds the endpoint and fewer events after it; the read models are rebuilt from it; the outbox is as it was.
    const endpointEvents = await store.readStream(`webhook-${endpoint.endpoint_id}`);
    await store.close();
    store = new EventStoreDbEventStore(new EventStoreDbClientStandIn().asClient());
    await store.appendToStream(
      `webhook-${endpoint.endpoint_id}`,
      endpointEvents.map(({ id, type, data, metadata }) => ({ id, type, data, metadata })),
    );
    await writeHistories(store, { trainees: 1, changesEach: 1, providers: 1, prefix: 'A' });
    readModel.close();
    readModel = SqliteReadModel.open(join(dir, 'rebuilt'));
    await project();
    const head = await store.headPosition();
    expect(before).toBeGreaterThan(head);
    const ahead = dispatcherOn();
    await ahead.start();
    await ahead.stop();
    expect(ahead.aheadOfLog).not.toBeNull();

    expect(await resetOutboxToLog(outbox, store)).toMatchObject({ reset: true, head, endpoints: 1 });
    expect(await positions()).toContain(await outbox.checkpoint());
    await writeHistories(store, { trainees: 1, changesEach: 1, providers: 1, prefix: 'B' });
    await project();
    const dispatcher = dispatcherOn();
    await dispatcher.start();
    expect(dispatcher.aheadOfLog).toBeNull();
    await dispatcher.stop();
    while ((await dispatcher.ingestOnce()) > 0);
    const changes = await store.readAll({ fromPosition: head, maxCount: 1000, filter: { streamPrefixes: ['trainee-'] } });
    const delivered = (await outbox.deliveries(endpoint.endpoint_id, 1000)).filter((d) => d.position > head);
    expect(delivered.map((d) => d.position).sort((a, b) => a - b)).toEqual(changes.map((e) => e.position));
  });
});
