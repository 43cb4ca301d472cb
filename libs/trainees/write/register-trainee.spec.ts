/**
 * A registration's claim on its reservation (docs/DESIGN.md property 3), over the real SQLite event
 * store and read models and reservations in memory: a duplicate is refused; a claim whose writer
 * stopped, the registering trainee's own claim from a run that stopped, and an erased trainee's
 * claim hold no create back and are dropped from the reservation.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { KeyedLock, newEventId, toEventData } from '@app/event-sourcing';
import { DuplicateTrainee, duplicateGuardKey, traineeStreamId } from '@app/trainees/decider';
import { contractFor } from '@app/trainees/contract';
import { payload } from '@app/trainees/contract/testing/trainee-payload';
import { openSqliteEventStore, type SqliteEventStore, SqliteReadModel } from '@app/stores/sqlite';
import { Projector } from '@app/runtime/projector';
import type { Caller } from './caller';
import { keyedGuardNames, MemoryRegistrationReservations } from './registration-reservations.port';
import { registerTrainee } from './register-trainee';
import type { TraineeWritePorts } from './trainee-write.ports';

const UKPRN = '10000001';
const CALLER: Caller = { ukprn: UKPRN, tokenId: 'K1', apiVersion: 'v2026.1', requestId: 'req-1' };
const NOW = new Date('2026-11-22T10:00:00.000Z');
const SILENT = { error: () => undefined, warn: () => undefined };
const contract = contractFor('v2026.1');
const body = payload('v2026.1');
const name = keyedGuardNames(Buffer.alloc(32, 5))(
  duplicateGuardKey(UKPRN, { date_of_birth: '1990-05-01', training_route: String(body.training_route), last_name: 'Lovelace' }),
);
const secondsAgo = (s: number) => new Date(NOW.getTime() - s * 1000).toISOString();

describe('registerTrainee: the reservation', () => {
  let dir: string;
  let eventStore: SqliteEventStore;
  let readModel: SqliteReadModel;
  let reservations: MemoryRegistrationReservations;
  let ports: TraineeWritePorts;
  let projector: Projector;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'register-'));
    eventStore = openSqliteEventStore(dir);
    readModel = new SqliteReadModel(path.join(dir, 'read-models.sqlite'));
    reservations = new MemoryRegistrationReservations();
    projector = new Projector(eventStore, readModel, SILENT);
    let n = 0;
    ports = {
      eventStore,
      trainees: readModel,
      schools: { findByUrns: async () => new Map() },
      projection: { waitFor: async () => (await projector.catchUp(), true) },
      locks: new KeyedLock(),
      clock: () => NOW,
      newId: () => `id${n++}`,
      newTraineeId: async () => `N${n++}`,
      reservations,
      guardNameOf: keyedGuardNames(Buffer.alloc(32, 5)),
    };
  });
  afterEach(async () => {
    readModel.close();
    await eventStore.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const register = (traineeId?: string) =>
    registerTrainee(ports, CALLER, contract.rules, contract.requests.traineeCreate(body), { traineeId });
  const claimed = async () => (await reservations.readReservation(name)).claims.map((c) => c.trainee_id);

  it('claims the reservation for the trainee, and refuses the same details again as a duplicate', async () => {
    const first = await register();
    expect(await claimed()).toEqual([first.trainee_id]);
    await expect(register()).rejects.toBeInstanceOf(DuplicateTrainee);
    expect(await claimed()).toEqual([first.trainee_id]);
  });

  it('drops a claim whose writer stopped more than 10 s ago without appending, and is not held back by it', async () => {
    expect(await reservations.writeReservation(name, 0, [{ trainee_id: 'Stopped', at: secondsAgo(60) }])).toBe(true);
    const created = await register();
    expect(await claimed()).toEqual([created.trainee_id]);
  });

  it('is not held back by its own claim from a run that stopped before appending (an upload row written again)', async () => {
    expect(await reservations.writeReservation(name, 0, [{ trainee_id: 'U1', at: secondsAgo(1) }])).toBe(true);
    const started = Date.now();
    expect((await register('U1')).trainee_id).toBe('U1');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await claimed()).toEqual(['U1']);
  });

  it('registers the details of an erased trainee again at once, and drops its claim', async () => {
    const erased = await register();
    const event = { type: 'TraineeErased', data: { trainee_id: erased.trainee_id, reason: 'r', erased_by: 'dpo', at: NOW.toISOString() } };
    await eventStore.appendToStream(
      traineeStreamId(erased.trainee_id),
      toEventData([event], { occurredAt: NOW.toISOString() }, newEventId),
    );
    await projector.catchUp(); // the read model forgets it, as an erasure's does
    const started = Date.now();
    const again = await register();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(again.trainee_id).not.toBe(erased.trainee_id);
    expect(await claimed()).toEqual([again.trainee_id]);
  });

  it('stamps its claim when it writes it, not when the create began, so a slow create’s claim holds others back from then', async () => {
    let at = NOW;
    ports.clock = () => at;
    ports.schools = { findByUrns: async () => ((at = new Date(NOW.getTime() + 12_000)), new Map()) };
    await register();
    expect((await reservations.readReservation(name)).claims.map((c) => c.at)).toEqual([new Date(NOW.getTime() + 12_000).toISOString()]);
  });
});
