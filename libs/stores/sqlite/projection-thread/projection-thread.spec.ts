import * as fs from 'node:fs';
import { fixedKeySource } from '@app/keys';
import * as os from 'node:os';
import * as path from 'node:path';
import { LOG_START, logPosition, newEventId, toEventData, WrongExpectedVersionError } from '@app/event-sourcing';
import { traineeStreamId } from '@app/trainees/decider';
import { exampleRegistration, traineeUpdated, TRAINEE_ID, UKPRN } from '@app/trainees/decider/testing/trainee-events';
import { DataKeys, PersonalData } from '@app/personal-data';
import { TRAINEE_PERSONAL_DATA } from '@app/trainees/decider';
import { SqliteReadModel } from '../read-models/sqlite-read-model';
import { SqliteDataKeyStore } from '../sqlite-data-key-store';
import { openSqliteEventStore } from '../event-log/sqlite-event-store';
import { ProjectionThread } from './projection-thread';

const AT = '2026-01-01T00:00:00.000Z';
const QUIET = { error: () => undefined, warn: () => undefined };

describe('ProjectionThread and its log writer thread (docs/DESIGN.md "The projection thread")', () => {
  let dir: string;
  let thread: ProjectionThread;
  let reads: SqliteReadModel;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'projection-thread-'));
    thread = new ProjectionThread({ dataDir: dir, logger: QUIET });
    await thread.start();
    reads = SqliteReadModel.open(dir);
  }, 30_000);

  afterEach(async () => {
    reads.close();
    await thread.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('commits an append in the thread, projects it there, and releases the writer waiting for it', async () => {
    const appended = await thread.eventStore.appendToStream(
      traineeStreamId(TRAINEE_ID),
      toEventData(exampleRegistration(), { occurredAt: AT }, newEventId),
      { expectedRevision: 'no_stream' },
    );
    expect(appended.nextExpectedRevision).toBe(3);
    expect(await thread.waitFor(appended.position)).toBe(true);
    expect(thread.checkpoint).toBeGreaterThanOrEqual(appended.position);
    expect(thread.health().state).toBe('live');
    expect((await reads.getTraineeSnapshot(TRAINEE_ID))?.head.revision).toBe(3);
    expect((await thread.eventStore.readStream(traineeStreamId(TRAINEE_ID))).map((e) => e.type)).toEqual([
      'TraineeRegistered',
      'PlacementAdded',
      'DegreeAdded',
      'TraineeSubmittedForTrn',
    ]);
  });

  it('carries the store’s errors back as the port’s own classes, and commits the other appends of the group', async () => {
    const stream = traineeStreamId(TRAINEE_ID);
    await thread.eventStore.appendToStream(stream, toEventData(exampleRegistration(), { occurredAt: AT }, newEventId));
    const update = () => toEventData([traineeUpdated({ changes: { middle_names: 'Ann' } })], { occurredAt: AT }, newEventId);
    const [stale, fresh] = await Promise.allSettled([
      thread.eventStore.appendToStream(stream, update(), { expectedRevision: 0 }),
      thread.eventStore.appendToStream(stream, update(), { expectedRevision: 3 }),
    ]);
    expect(stale.status).toBe('rejected');
    const error = (stale as PromiseRejectedResult).reason as WrongExpectedVersionError;
    expect(error).toBeInstanceOf(WrongExpectedVersionError);
    expect([error.streamId, error.expected]).toEqual([stream, 0]);
    expect(fresh.status).toBe('fulfilled');
  });

  it('wakes the API thread’s own subscriptions on each commit of the thread', async () => {
    const sub = thread.eventStore.subscribeToAll({ fromPosition: LOG_START });
    const iterator = sub[Symbol.asyncIterator]();
    const first = iterator.next();
    await thread.eventStore.appendToStream(`provider-${UKPRN}`, [
      { id: newEventId(), type: 'Probe', data: {}, metadata: { schemaVersion: 1, occurredAt: AT } },
    ]);
    const { value } = await first;
    expect(value?.type).toBe('Probe');
    await sub.unsubscribe();
  });

  it('commits and answers the appends still queued when it is closed', async () => {
    const stream = traineeStreamId(TRAINEE_ID);
    const appended = thread.eventStore.appendToStream(stream, toEventData(exampleRegistration(), { occurredAt: AT }, newEventId));
    await thread.close();
    expect((await appended).nextExpectedRevision).toBe(3);
    const reopened = openSqliteEventStore(dir);
    try {
      expect(await reopened.readStream(stream)).toHaveLength(4);
    } finally {
      await reopened.close();
    }
  });

  it('answers waiters of a position it never reaches with false after the timeout', async () => {
    expect(await thread.waitFor(logPosition(10_000), 20)).toBe(false);
  });

  /**
   * Restarts the thread with a key-encryption key, seals a registration (last name Threadgold) with
   * a key kept in another store (the thread's own, DATA_DIR/keys.sqlite, never holds it), lets
   * `share` tell the thread what it may, appends it, and checks the thread projected it, opened.
   */
  async function projectsSealedRegistration(
    share: (personal: PersonalData) => Promise<void>,
    options: ConstructorParameters<typeof PersonalData>[3] = {},
  ): Promise<void> {
    await thread.close();
    const kek = Buffer.alloc(32, 7);
    thread = new ProjectionThread({ dataDir: dir, logger: QUIET, keyEncryptionKeys: fixedKeySource(kek) });
    await thread.start();
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'projection-thread-keys-'));
    const keyStore = SqliteDataKeyStore.open(elsewhere);
    try {
      const personal = new PersonalData(new DataKeys(keyStore, kek), TRAINEE_PERSONAL_DATA, true, options);
      const stream = traineeStreamId(TRAINEE_ID);
      const registration = exampleRegistration({ details: { last_name: 'Threadgold' } });
      const sealed = await personal.seal(stream, toEventData(registration, { occurredAt: AT }, newEventId));
      expect(JSON.stringify(sealed)).not.toContain('Threadgold');
      await share(personal);
      await thread.catchUp();
      const appended = await thread.eventStore.appendToStream(stream, sealed, { expectedRevision: 'no_stream' });
      expect(await thread.waitFor(appended.position)).toBe(true);
      expect(thread.health()).toMatchObject({ state: 'live', failure: null });
      expect((await reads.getTrainee(TRAINEE_ID))?.details.last_name).toBe('Threadgold');
    } finally {
      await keyStore.close();
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  }

  it('opens sealed events with a data key the API thread shared, without reading it from the key store', async () => {
    await projectsSealedRegistration(async (personal) => thread.shareDataKey(TRAINEE_ID, await personal.keys.keyFor(TRAINEE_ID)));
  });

  it('projects sealed events with the values the API thread shared, neither reading nor being told their key', async () => {
    await projectsSealedRegistration(async () => undefined, {
      onSealed: (eventId, values) => thread.shareSealedValues(eventId, values),
    });
  });
});
