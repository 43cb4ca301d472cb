import { MongoServerError, type Collection, type Db } from 'mongodb';
import type { NamedClaim, RegistrationClaim, RegistrationReservation } from '@app/trainees/write';
import { DUPLICATE_KEY, retryMultiWrite, untilDone } from './mongo-connection';

interface ReservationDocument {
  /** The reservation's name (a keyed hash of the duplicate rule's key). */
  _id: string;
  version: number;
  claims: RegistrationClaim[];
}

/** Collection of the registration reservations, beside `data_keys` and outside the versioned projection collections. */
export const RESERVATION_COLLECTION = 'registration_reservations';

/**
 * The registration reservations on MongoDB (docs/DESIGN.md property 3), for `MongoDataKeyStore`:
 * one document per reservation (`_id` its name) holding its claims and version; majority, journaled
 * writes. A first claim is an insert (the unique `_id` decides between concurrent ones), a later
 * one an update matched on the version read. An erasure pulls the trainee's claims (indexed by
 * `claims.trainee_id`) and deletes each reservation left with none.
 */
export class MongoRegistrationReservations {
  private readonly rows: Collection<ReservationDocument>;
  private readonly indexed: () => Promise<void>;

  constructor(db: Db) {
    this.rows = db.collection<ReservationDocument>(RESERVATION_COLLECTION);
    this.indexed = untilDone(async () => {
      await this.rows.createIndex({ 'claims.trainee_id': 1 });
      await this.rows.createIndex({ 'claims.at': 1 });
    });
  }

  /** `RegistrationReservations.readReservation`, read at majority. */
  async read(name: string): Promise<RegistrationReservation> {
    const doc = await this.rows.findOne({ _id: name }, { readConcern: { level: 'majority' } });
    return doc ? { claims: doc.claims, version: doc.version } : { claims: [], version: 0 };
  }

  /** `RegistrationReservations.writeReservation`. */
  async write(name: string, version: number, claims: readonly RegistrationClaim[]): Promise<boolean> {
    await this.indexed();
    const stored = claims.map(({ trainee_id, at }) => ({ trainee_id, at }));
    if (version === 0) {
      try {
        await this.rows.insertOne({ _id: name, version: 1, claims: stored });
        return true;
      } catch (err) {
        if (err instanceof MongoServerError && err.code === DUPLICATE_KEY) return false;
        throw err;
      }
    }
    const updated = await this.rows.updateOne({ _id: name, version }, { $set: { version: version + 1, claims: stored } });
    return updated.modifiedCount === 1;
  }

  /** `RegistrationReservations.claimsMadeBefore`, read at majority (an index on `claims.at` finds the reservations). */
  async madeBefore(at: string, limit: number): Promise<NamedClaim[]> {
    await this.indexed();
    return this.rows
      .aggregate<NamedClaim>(
        [
          { $match: { 'claims.at': { $lt: at } } },
          { $unwind: '$claims' },
          { $match: { 'claims.at': { $lt: at } } },
          { $project: { _id: 0, name: '$_id', trainee_id: '$claims.trainee_id', at: '$claims.at' } },
          { $sort: { at: 1, name: 1, trainee_id: 1 } },
          { $limit: limit },
        ],
        { readConcern: { level: 'majority' } },
      )
      .toArray();
  }

  /**
   * `RegistrationReservations.releaseClaims`: one unordered bulk write pulling each claim with a
   * higher version, then one deleting the reservations left with none.
   */
  async release(claims: readonly NamedClaim[]): Promise<void> {
    if (claims.length === 0) return;
    await this.indexed();
    const pulled = await this.rows.bulkWrite(
      claims.map(({ name, trainee_id }) => ({
        updateOne: {
          filter: { _id: name, 'claims.trainee_id': trainee_id },
          update: { $pull: { claims: { trainee_id } }, $inc: { version: 1 } },
        },
      })),
      { ordered: false },
    );
    if (pulled.modifiedCount > 0)
      await retryMultiWrite(() => this.rows.deleteMany({ _id: { $in: claims.map((c) => c.name) }, claims: { $size: 0 } }));
  }

  /**
   * Pulls `traineeId`'s claims and deletes each reservation left with none; true when there were any, or may have been. Each write is
   * sent again after a step-down (`retryMultiWrite`); a pull run again finds nothing more to pull, so when an attempt failed (it may
   * have pulled them all before its reply was lost) the empty reservations are deleted whatever the last attempt pulled.
   */
  async forgetTrainee(traineeId: string): Promise<boolean> {
    await this.indexed();
    let pulled = false;
    await retryMultiWrite(async (again) => {
      const result = await this.rows.updateMany(
        { 'claims.trainee_id': traineeId },
        { $pull: { claims: { trainee_id: traineeId } }, $inc: { version: 1 } },
      );
      pulled = again || result.modifiedCount > 0;
    });
    if (pulled) await retryMultiWrite(() => this.rows.deleteMany({ claims: { $size: 0 } }));
    return pulled;
  }
}
