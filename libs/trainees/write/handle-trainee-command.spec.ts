/**
 * The write path every trainee command shares (docs/DESIGN.md "Bounded cost per trainee",
 * properties 1, 2 and 6), over the real SQLite event store and read models: it starts from the
 * read model's snapshot, falls back to replaying the stream when the served projection was built by
 * another version of the code, and leaves ownership to the decider.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { decide, NotFound, traineeStreamId, type TraineeEvent } from '@app/trainees/decider';
import { toEventData, newEventId, type EventStore, KeyedLock } from '@app/event-sourcing';
import { exampleRegistration, NOW, OTHER_UKPRN, TRAINEE_ID, traineeUpdated, UKPRN } from '@app/trainees/decider/testing/trainee-events';
import { updateTrainee } from '@app/trainees/decider/testing/trainee-commands';
import { openSqliteEventStore, type SqliteEventStore, SqliteReadModel } from '@app/stores/sqlite';
import { Projector } from '@app/runtime/projector';
import type { Caller } from './caller';
import { keyedGuardNames, MemoryRegistrationReservations } from './registration-reservations.port';
import { handleTraineeCommand, TraineeHistoryUnreadable } from './handle-trainee-command';
import type { TraineeWritePorts } from './trainee-write.ports';

const CALLER: Caller = { ukprn: UKPRN, tokenId: 'K1', apiVersion: 'v2026.1', requestId: 'req-1' };
const SILENT = { error: () => undefined, warn: () => undefined };

describe('handleTraineeCommand', () => {
  let dir: string;
  let eventStore: SqliteEventStore;
  let readModel: SqliteReadModel;
  /** `fromRevision` of every stream read the write path made. */
  let reads: (number | undefined)[];

  /** The write ports over the real stores; reads of the event store are recorded in `reads`. */
  function portsOver(trainees: SqliteReadModel): TraineeWritePorts {
    const projector = new Projector(eventStore, trainees, SILENT);
    const recording: EventStore = Object.assign(Object.create(eventStore) as EventStore, {
      readStream: (streamId: string, options?: { fromRevision?: number }) => {
        reads.push(options?.fromRevision);
        return eventStore.readStream(streamId, options);
      },
    });
    return {
      eventStore: recording,
      trainees,
      schools: { findByUrns: async () => new Map() },
      projection: {
        waitFor: async () => {
          await projector.catchUp();
          return true;
        },
      },
      locks: new KeyedLock(),
      clock: () => new Date(NOW),
      newId: () => 'unused',
      newTraineeId: async () => 'unused',
      reservations: new MemoryRegistrationReservations(),
      guardNameOf: keyedGuardNames(Buffer.alloc(32, 5)),
    };
  }

  /** Runs UpdateTrainee with `middle_names` on `id` through the write path. */
  function update(ports: TraineeWritePorts, id: string, middle_names: string, caller: Caller = CALLER) {
    return handleTraineeCommand(ports, caller, id, (state, { traineeId, now }) =>
      decide(updateTrainee({ middle_names }, { trainee_id: traineeId, ukprn: caller.ukprn, now }), state),
    );
  }

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'write-path-'));
    eventStore = openSqliteEventStore(dir);
    readModel = new SqliteReadModel(path.join(dir, 'read-models.sqlite'));
    reads = [];
    const events: TraineeEvent[] = [...exampleRegistration(), traineeUpdated({ changes: { middle_names: 'Ann' } })];
    await eventStore.appendToStream(traineeStreamId(TRAINEE_ID), toEventData(events, { occurredAt: NOW }, newEventId));
    await new Projector(eventStore, readModel, SILENT).catchUp();
  });

  afterEach(async () => {
    readModel.close();
    await eventStore.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts from the snapshot (reads only the events after its revision), appends after it and answers once projected', async () => {
    const trainee = await update(portsOver(readModel), TRAINEE_ID, 'Kim');
    expect(reads).toEqual([5]);
    expect(trainee.details.middle_names).toBe('Kim');
    const stream = await eventStore.readStream(traineeStreamId(TRAINEE_ID));
    expect(stream.map((r) => [r.streamRevision, r.type])).toEqual([
      [0, 'TraineeRegistered'],
      [1, 'PlacementAdded'],
      [2, 'DegreeAdded'],
      [3, 'TraineeSubmittedForTrn'],
      [4, 'TraineeUpdated'],
      [5, 'TraineeUpdated'],
    ]);
    expect(stream[5].metadata).toMatchObject({ providerUkprn: UKPRN, apiVersion: 'v2026.1', requestId: 'req-1', tokenId: 'K1' });
    expect((await readModel.getTraineeSnapshot(TRAINEE_ID))?.head.revision).toBe(5);
  });

  it('folds events the snapshot does not hold yet (a lagging projection) before deciding', async () => {
    await eventStore.appendToStream(
      traineeStreamId(TRAINEE_ID),
      toEventData([traineeUpdated({ changes: { middle_names: 'Kim' } })], { occurredAt: NOW }, newEventId),
    );
    // The read model still holds revision 4; the write path reads revision 5 after it and sees Kim already set.
    const trainee = await update(portsOver(readModel), TRAINEE_ID, 'Kim');
    expect(reads).toEqual([5]);
    expect(trainee.details.middle_names).toBe('Kim');
    expect(await eventStore.readStream(traineeStreamId(TRAINEE_ID))).toHaveLength(6);
  });

  it('refuses, appending nothing, when a stored event of the trainee cannot be folded (one the projector cannot apply)', async () => {
    const bad = { id: newEventId(), type: 'PlacementAdded', data: {}, metadata: { occurredAt: NOW, schemaVersion: 1 } };
    await eventStore.appendToStream(traineeStreamId(TRAINEE_ID), [bad]);
    const projector = new Projector(eventStore, readModel, SILENT, { retryDelayMs: 1, catchUpAttempts: 1 });
    await projector.catchUp();
    expect(projector.health().failure).toMatchObject({ kind: 'apply', revision: 5 });
    expect((await readModel.getTraineeSnapshot(TRAINEE_ID))?.head.revision).toBe(4);
    const error = await update(portsOver(readModel), TRAINEE_ID, 'Kim').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TraineeHistoryUnreadable);
    expect((error as Error).message).not.toMatch(/undefined|TypeError/);
    expect(await eventStore.readStream(traineeStreamId(TRAINEE_ID))).toHaveLength(6);
  });

  it('replays the whole stream when the served trainee projection was built by another version of the code', async () => {
    const newerCode = new SqliteReadModel(path.join(dir, 'read-models.sqlite'), { codeVersions: { trainees: 999 } });
    try {
      expect(await newerCode.getTraineeSnapshot(TRAINEE_ID)).toBeNull();
      const trainee = await update(portsOver(newerCode), TRAINEE_ID, 'Kim');
      expect(reads).toEqual([undefined]);
      expect(trainee.details.middle_names).toBe('Kim');
      expect(await eventStore.readStream(traineeStreamId(TRAINEE_ID))).toHaveLength(6);
    } finally {
      newerCode.close();
    }
  });

  it('finds the trainee by an id in another case; an unknown id is NotFound before any stream is read', async () => {
    const trainee = await update(portsOver(readModel), TRAINEE_ID.toLowerCase(), 'Kim');
    expect(trainee.trainee_id).toBe(TRAINEE_ID);
    await expect(update(portsOver(readModel), 'nobody', 'Kim')).rejects.toBeInstanceOf(NotFound);
    expect(reads).toEqual([5]);
  });

  it("answers NotFound for another provider's trainee (the decider's ownership check) and appends nothing", async () => {
    await expect(update(portsOver(readModel), TRAINEE_ID, 'Kim', { ...CALLER, ukprn: OTHER_UKPRN })).rejects.toBeInstanceOf(NotFound);
    expect(await eventStore.readStream(traineeStreamId(TRAINEE_ID))).toHaveLength(5);
  });

  it('runs the commands on one trainee one after the other in this process: none is lost', async () => {
    const ports = portsOver(readModel);
    const names = ['Kim', 'Lee', 'Max', 'Ned'];
    await Promise.all(names.map((name) => update(ports, TRAINEE_ID, name)));
    const stream = await eventStore.readStream(traineeStreamId(TRAINEE_ID));
    expect(stream.slice(5).map((r) => (r.data as { changes: { middle_names: string } }).changes.middle_names)).toEqual(names);
  });
});
