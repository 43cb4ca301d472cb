/**
 * The trainees' personal data sealed in the embedded event log and opened for the projections
 * (docs/DESIGN.md "Personal data"): the log's own bytes hold none of it, every read of the port
 * gives the events as they were appended, and a projection built from the sealed log, in this
 * thread or in a stream-build worker, equals one built from the same history in the clear.
 */
import { join } from 'node:path';
import { fixedKeySource } from '@app/keys';
import { randomBytes } from 'node:crypto';
import { LOG_START, logPosition, newEventId, toEventData, type EventStore, type RecordedEvent } from '@app/event-sourcing';
import { DataKeyMissing, ERASED, withPersonalData } from '@app/personal-data';
import { createWebhookDispatcher, loadConfig } from '@app/runtime/process';
import { measureLag, PROJECTED_STREAMS, Projector } from '@app/runtime/projector';
import { traineeStreamId } from '@app/trainees/decider';
import { traineeDeferred, traineeUpdated } from '@app/trainees/decider/testing/trainee-events';
import { filesText } from '../../../../test/support/data-dir-files';
import { sqlitePersonalData, type SqliteDataKeyStore } from '../sqlite-data-key-store';
import { SqliteReadModel } from './sqlite-read-model';
import { SqliteWebhookOutbox } from '../sqlite-webhook-outbox';
import {
  allAnswers,
  allDocs,
  closeFreshEventStore,
  openFreshEventStore,
  registrationEvents,
  silent,
  STREAM_PHASES,
  writeHistory,
  type FreshEventStore,
} from './testing/read-model-histories';

const KEK = randomBytes(32);
const silentDispatcher = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('Personal data sealed in the SQLite event log (docs/DESIGN.md "Personal data")', () => {
  let plain: FreshEventStore;
  let fresh: FreshEventStore;
  let keyStore: SqliteDataKeyStore;
  let sealing: EventStore;

  beforeEach(() => {
    plain = openFreshEventStore('plain-');
    fresh = openFreshEventStore('sealed-');
    const opened = sqlitePersonalData(fresh.dir, fixedKeySource(KEK));
    keyStore = opened.keyStore;
    sealing = withPersonalData(fresh.store, opened.personal);
  });
  afterEach(async () => {
    await keyStore.close();
    await closeFreshEventStore(plain);
    await closeFreshEventStore(fresh);
  });

  async function defer(store: EventStore, id: string, reason: string): Promise<void> {
    const events = [traineeDeferred({ trainee_id: id, defer_date: '2026-03-01', defer_reason: reason, at: '2026-03-01T00:00:00.000Z' })];
    await store.appendToStream(traineeStreamId(id), toEventData(events, { occurredAt: '2026-03-01T00:00:00.000Z' }, newEventId));
  }

  it('stores no personal value in the clear, and every read gives the events back as appended', async () => {
    await writeHistory(sealing, 3, 1);
    await defer(sealing, 'T1', 'Moved to Zanzibar for family reasons');
    const log = filesText(fresh.dir, 'events.sqlite');
    for (const value of ['Name1', 'p1@example.com', 'Zanzibar']) expect(log).not.toContain(value);
    // The codes and ids that identify no one stay readable.
    expect(log).toContain('TraineeRegistered');
    expect(log).toContain('"training_route"');

    const raw = await fresh.store.readStream(traineeStreamId('T1'));
    expect(raw[0].data).toMatchObject({ sealed: { fields: expect.arrayContaining(['details.first_names', 'details.email']) } });
    expect(raw.find((e) => e.type === 'TraineeDeferred')!.data).toMatchObject({ sealed: { fields: ['defer_reason'] } });

    const stream = await sealing.readStream(traineeStreamId('T1'));
    expect(stream[0].data).toMatchObject({ details: { first_names: 'Name1', email: 'p1@example.com' } });
    expect(stream.find((e) => e.type === 'TraineeDeferred')!.data).toMatchObject({ defer_reason: 'Moved to Zanzibar for family reasons' });
    const all = await sealing.readAll({ maxCount: 100 });
    expect(all.filter((e) => e.streamId === traineeStreamId('T1'))).toEqual(stream);
    const byStream = await sealing.readStreamsByPrefix!({ streamPrefix: 'trainee-', toPosition: logPosition(1000), maxCount: 1000 });
    expect(byStream).toEqual([...all].sort((a, b) => a.streamId.localeCompare(b.streamId) || a.streamRevision - b.streamRevision));
    const sub = sealing.subscribeToAll();
    const live: RecordedEvent[] = [];
    for await (const e of sub) {
      live.push(e);
      if (live.length === all.length) break;
    }
    await sub.unsubscribe();
    expect(live).toEqual(all);
  });

  it('counts the lag and feeds the webhook dispatcher from the log as stored: both work where no key opens', async () => {
    await writeHistory(sealing, 3, 1);
    // The same log seen through a key store holding none of its keys: every read that opens fails.
    const other = sqlitePersonalData(plain.dir, fixedKeySource(KEK));
    const keyless = withPersonalData(fresh.store, other.personal);
    const readModel = SqliteReadModel.open(fresh.dir);
    const outbox = SqliteWebhookOutbox.open(fresh.dir);
    try {
      await expect(keyless.readAll({ maxCount: 10 })).rejects.toBeInstanceOf(DataKeyMissing);
      const projected = await fresh.store.readAll({ maxCount: 1000, filter: PROJECTED_STREAMS });
      const lag = await measureLag(fresh.store, LOG_START, new Date('2030-01-01T00:00:00Z'));
      expect(lag).toMatchObject({ checkpoint: 0, events: projected.length, atLeast: false });
      expect(lag.seconds).toBeGreaterThan(0);
      // The registry's backlog gauge counts the same way, with its own filter.
      const registered = projected.filter((e) => e.type === 'TraineeRegistered').length;
      expect(registered).toBeGreaterThan(0);
      const filtered = await measureLag(fresh.store, LOG_START, new Date(), 1000, { eventTypes: ['TraineeRegistered'] });
      expect(filtered.events).toBe(registered);
      // Nothing projected yet: the dispatcher looks at the first unprojected event's position, and stops before it,
      // reading only the log as stored (a read through the keyless event store would fail).
      const stores = { eventStore: keyless, storedLog: fresh.store, readModel };
      const dispatcher = createWebhookDispatcher(loadConfig({}), stores, outbox, silentDispatcher, KEK);
      await expect(dispatcher.ingestOnce()).resolves.toBe(0);
    } finally {
      outbox.close();
      readModel.close();
      await other.keyStore.close();
    }
  });

  it('gives [erased] for every personal value of a trainee whose key is destroyed, and its other fields as they were', async () => {
    await writeHistory(sealing, 2, 0);
    await sealing.appendToStream(
      traineeStreamId('T0'),
      toEventData(
        [traineeUpdated({ trainee_id: 'T0', changes: { last_name: 'Quillfeather', course_title: 'Maths' } })],
        { occurredAt: 'x' },
        newEventId,
      ),
    );
    const keys = sqlitePersonalData(fresh.dir, fixedKeySource(KEK));
    await keys.personal.keys.destroy('T0', new Date());
    await keys.keyStore.close();
    const erasedView = withPersonalData(fresh.store, sqlitePersonalData(fresh.dir, fixedKeySource(KEK)).personal);
    const events = await erasedView.readStream(traineeStreamId('T0'));
    expect(events[0].data).toMatchObject({ details: { first_names: ERASED, email: ERASED, training_route: '11' } });
    expect(events[events.length - 1].data).toMatchObject({ changes: { last_name: ERASED, course_title: 'Maths' } });
    expect((await erasedView.readStream(traineeStreamId('T1')))[0].data).toMatchObject({ details: { first_names: 'Name1' } });
  });

  describe.each(STREAM_PHASES)('a projection of the sealed log, first built %s', (_, options) => {
    it('equals the projection of the same history in the clear', async () => {
      for (const store of [plain.store, sealing]) {
        await writeHistory(store, 12, 2);
        await defer(store, 'T3', 'A reason of T3');
      }
      const fromPlain = new SqliteReadModel(join(plain.dir, 'rm.sqlite'), options);
      // The stream build's workers open with the same key-encryption key, as `openStores` gives it.
      const fromSealed = new SqliteReadModel(join(fresh.dir, 'rm.sqlite'), { ...options, keyEncryptionKeys: fixedKeySource(KEK) });
      await new Projector(plain.store, fromPlain, silent).catchUp();
      await new Projector(sealing, fromSealed, silent).catchUp();
      expect(await allDocs(fromSealed, 12)).toEqual(await allDocs(fromPlain, 12));
      expect(await allAnswers(fromSealed, 12)).toEqual(await allAnswers(fromPlain, 12));
      expect((await fromSealed.getTrainee('T3'))?.defer_reason).toBe('A reason of T3');
      fromPlain.close();
      fromSealed.close();
    });
  });

  it('seals a trainee registered under an id of the pool with the key stored for that id beforehand', async () => {
    const opened = sqlitePersonalData(fresh.dir, fixedKeySource(KEK));
    const id = await opened.personal.keys.newTraineeId();
    const stored = await keyStore.get(id);
    expect(stored).toBeInstanceOf(Buffer);
    const store = withPersonalData(fresh.store, opened.personal);
    await store.appendToStream(traineeStreamId(id), toEventData(registrationEvents(id, 5), { occurredAt: 'x' }, newEventId));
    expect((await sealing.readStream(traineeStreamId(id)))[0].data).toMatchObject({ details: { first_names: 'Name5' } });
    expect(await keyStore.get(id)).toEqual(stored);
    await opened.keyStore.close();
  });
});
