/**
 * Settled claims released (settled-claims.ts), over the real SQLite event store and read models and
 * reservations in memory: a projected trainee's claim goes a minute after it was made, and its
 * details are still refused as a duplicate; a claim of a trainee written and not yet projected stays;
 * a create slower than the claim window answers 409; the release's runs are armed while claims are left.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { KeyedLock } from '@app/event-sourcing';
import { ConcurrentModification, DuplicateTrainee } from '@app/trainees/decider';
import { contractFor } from '@app/trainees/contract';
import { payload } from '@app/trainees/contract/testing/trainee-payload';
import { openSqliteEventStore, type SqliteEventStore, SqliteReadModel } from '@app/stores/sqlite';
import { Projector } from '@app/runtime/projector';
import type { Caller } from './caller';
import { keyedGuardNames, MemoryRegistrationReservations } from './registration-reservations.port';
import { registerTrainee } from './register-trainee';
import { CLAIM_WRITE_WITHIN_MS, releaseSettledClaims, SETTLED_CLAIM_AGE_MS, SettledClaimRelease } from './settled-claims';
import type { TraineeWritePorts } from './trainee-write.ports';

const CALLER: Caller = { ukprn: '10000001', tokenId: 'K1', apiVersion: 'v2026.1', requestId: 'req-1' };
const SILENT = { error: () => undefined, warn: () => undefined };
const contract = contractFor('v2026.1');
const END = '9999-12-31T00:00:00.000Z';

describe('releaseSettledClaims', () => {
  let dir: string;
  let eventStore: SqliteEventStore;
  let readModel: SqliteReadModel;
  let reservations: MemoryRegistrationReservations;
  let ports: TraineeWritePorts;
  let now: Date;
  let project: boolean;
  let written: number;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'settled-'));
    eventStore = openSqliteEventStore(dir);
    readModel = new SqliteReadModel(path.join(dir, 'read-models.sqlite'));
    reservations = new MemoryRegistrationReservations();
    const projector = new Projector(eventStore, readModel, SILENT);
    now = new Date('2026-11-22T10:00:00.000Z');
    project = true;
    written = 0;
    let n = 0;
    ports = {
      eventStore,
      trainees: readModel,
      schools: { findByUrns: async () => new Map() },
      projection: { waitFor: async () => (project && (await projector.catchUp()), true) },
      locks: new KeyedLock(),
      clock: () => now,
      newId: () => `id${n++}`,
      newTraineeId: async () => `N${n++}`,
      reservations,
      guardNameOf: keyedGuardNames(Buffer.alloc(32, 5)),
      claimWritten: () => void written++,
    };
  });
  afterEach(async () => {
    readModel.close();
    await eventStore.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const register = (lastName: string) =>
    registerTrainee(ports, CALLER, contract.rules, contract.requests.traineeCreate({ ...payload('v2026.1'), last_name: lastName }));
  const later = (ms: number) => (now = new Date(now.getTime() + ms));

  it('releases a projected trainee’s claim a minute after it was made, and still refuses its details as a duplicate', async () => {
    await register('Lovelace');
    expect(written).toBe(1);
    expect(await releaseSettledClaims(ports)).toEqual({ released: 0, kept: 0 });
    expect(await reservations.claimsMadeBefore(END, 10)).toHaveLength(1);
    later(SETTLED_CLAIM_AGE_MS + 1);
    expect(await releaseSettledClaims(ports)).toEqual({ released: 1, kept: 0 });
    expect(await reservations.claimsMadeBefore(END, 10)).toEqual([]);
    await expect(register('Lovelace')).rejects.toBeInstanceOf(DuplicateTrainee);
  });

  it('keeps the claim of a trainee written and not yet projected, and releases it once projected', async () => {
    project = false;
    await register('Hopper');
    later(SETTLED_CLAIM_AGE_MS + 1);
    expect(await releaseSettledClaims(ports)).toEqual({ released: 0, kept: 1 });
    project = true;
    await register('Turing'); // projects the log, Hopper included
    expect(await releaseSettledClaims(ports)).toEqual({ released: 1, kept: 0 });
    expect((await reservations.claimsMadeBefore(END, 10)).map((c) => c.at)).toEqual([now.toISOString()]);
  });

  it('releases the claim of a trainee never written (its writer stopped)', async () => {
    expect(await reservations.writeReservation('g', 0, [{ trainee_id: 'Stopped', at: now.toISOString() }])).toBe(true);
    later(SETTLED_CLAIM_AGE_MS + 1);
    expect(await releaseSettledClaims(ports)).toEqual({ released: 1, kept: 0 });
    expect(await reservations.readReservation('g')).toEqual({ claims: [], version: 0 });
  });

  it('answers 409 (ConcurrentModification) to a create that could not write its claim within the window', async () => {
    const slow = ports.schools;
    ports.schools = {
      findByUrns: async (urns) => {
        jest.spyOn(performance, 'now').mockReturnValue(performance.now() + CLAIM_WRITE_WITHIN_MS + 1);
        return slow.findByUrns(urns);
      },
    };
    try {
      await expect(register('Noether')).rejects.toBeInstanceOf(ConcurrentModification);
    } finally {
      jest.restoreAllMocks();
    }
    expect(await reservations.claimsMadeBefore(END, 10)).toEqual([]);
  });

  it('runs a release a minute after it is armed by a written claim, and arms nothing more once none is left', async () => {
    const failures: unknown[] = [];
    const release = new SettledClaimRelease(ports, (e) => failures.push(e));
    await register('Lovelace');
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'performance'] });
    try {
      await release.runNow(); // at start: the claim is too young, so the next run is armed
      expect(jest.getTimerCount()).toBe(1);
      release.soon(); // one timer at a time
      expect(jest.getTimerCount()).toBe(1);
      later(SETTLED_CLAIM_AGE_MS + 1_000);
      await jest.advanceTimersByTimeAsync(SETTLED_CLAIM_AGE_MS + 1_000);
      await release.stop();
      expect(await reservations.claimsMadeBefore(END, 10)).toEqual([]);
      expect(jest.getTimerCount()).toBe(0);
      expect(failures).toEqual([]);
    } finally {
      jest.useRealTimers();
    }
  });
});
