/**
 * `MongoRegistrationReservations.forgetTrainee` (an erasure's part) over a driver double (no MongoDB server): a
 * `registration_reservations` collection whose `updateMany` pulls claims and bumps versions and whose `deleteMany` drops the
 * reservations left without claims, as the server applies those operators, and whose first `updateMany` fails as a step-down makes
 * it fail (./testing/driver-faults.ts): refused before it ran (10107), or interrupted once it had pulled every claim (11602). The
 * store on a server is the registration reservations contract's (test/contract/registration-reservations.contract.ts).
 */
import type { Db } from 'mongodb';
import type { RegistrationClaim } from '@app/trainees/write';
import { MongoRegistrationReservations } from './mongo-registration-reservations';
import { failingOnce, INTERRUPTED_DUE_TO_REPL_STATE_CHANGE, NOT_WRITABLE_PRIMARY, steppedDown } from './testing/driver-faults';

interface Row {
  _id: string;
  version: number;
  claims: RegistrationClaim[];
}

function collectionDouble(firstPull?: { code: number; workedFirst: boolean }) {
  const rows = new Map<string, Row>();
  const pull = async (filter: { 'claims.trainee_id': string }) => {
    const traineeId = filter['claims.trainee_id'];
    let modifiedCount = 0;
    for (const row of rows.values()) {
      if (!row.claims.some((c) => c.trainee_id === traineeId)) continue;
      row.claims = row.claims.filter((c) => c.trainee_id !== traineeId);
      row.version++;
      modifiedCount++;
    }
    return { matchedCount: modifiedCount, modifiedCount };
  };
  const collection = {
    createIndex: async () => 'index',
    updateMany: firstPull ? failingOnce(steppedDown(firstPull.code), pull, firstPull.workedFirst) : jest.fn(pull),
    deleteMany: jest.fn(async (filter: { claims: { $size: number } }) => {
      let deletedCount = 0;
      for (const [id, row] of rows) if (row.claims.length === filter.claims.$size && rows.delete(id)) deletedCount++;
      return { deletedCount };
    }),
  };
  return { db: { collection: () => collection } as unknown as Db, rows, collection };
}

const at = '2026-01-01T00:00:00.000Z';
function seed(rows: Map<string, Row>) {
  rows.set('r1', { _id: 'r1', version: 1, claims: [{ trainee_id: 'T1', at }] });
  rows.set('r2', {
    _id: 'r2',
    version: 2,
    claims: [
      { trainee_id: 'T1', at },
      { trainee_id: 'T2', at },
    ],
  });
}

describe('MongoRegistrationReservations.forgetTrainee (driver double)', () => {
  it('pulls the claims and deletes the reservations left without any', async () => {
    const { db, rows } = collectionDouble();
    seed(rows);
    await expect(new MongoRegistrationReservations(db).forgetTrainee('T1')).resolves.toBe(true);
    expect([...rows.values()]).toEqual([{ _id: 'r2', version: 3, claims: [{ trainee_id: 'T2', at }] }]);
  });

  it('sends the pull again after a step-down refused it, and finishes the erasure', async () => {
    const { db, rows, collection } = collectionDouble({ code: NOT_WRITABLE_PRIMARY, workedFirst: false });
    seed(rows);
    await expect(new MongoRegistrationReservations(db).forgetTrainee('T1')).resolves.toBe(true);
    expect(collection.updateMany).toHaveBeenCalledTimes(2);
    expect([...rows.values()]).toEqual([{ _id: 'r2', version: 3, claims: [{ trainee_id: 'T2', at }] }]);
  });

  it('leaves what one clean run leaves when the step-down came after the pull: the run again pulls nothing, and still deletes', async () => {
    const { db, rows, collection } = collectionDouble({ code: INTERRUPTED_DUE_TO_REPL_STATE_CHANGE, workedFirst: true });
    seed(rows);
    await expect(new MongoRegistrationReservations(db).forgetTrainee('T1')).resolves.toBe(true);
    expect(collection.updateMany).toHaveBeenCalledTimes(2);
    expect(collection.deleteMany).toHaveBeenCalledTimes(1);
    expect([...rows.values()]).toEqual([{ _id: 'r2', version: 3, claims: [{ trainee_id: 'T2', at }] }]);
  });
});
