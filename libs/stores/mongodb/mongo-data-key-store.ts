import { Binary, MongoServerError, type Collection, type Db } from 'mongodb';
import type { DataKeyStore } from '@app/personal-data';
import type { NamedClaim, RegistrationClaim, RegistrationReservation, RegistrationReservations } from '@app/trainees/write';
import { DUPLICATE_KEY, retryMultiWrite, untilDone } from './mongo-connection';
import { MongoRegistrationReservations } from './mongo-registration-reservations';

interface KeyDocument {
  /** The trainee id. */
  _id: string;
  /** Null once erased. */
  wrapped: Binary | null;
  erasedAt: Date | null;
}

/** How often at most a process reads the keys destroyed elsewhere, ms. */
const ERASURES_READ_EVERY_MS = 1000;
/** How far before the last read an erasure is looked for, in ms: the replicas' clocks may differ. */
const ERASURE_CLOCK_SLACK_MS = 60_000;

export const DATA_KEY_COLLECTION = 'data_keys';

/**
 * The index of `erasedSince`'s query (`erasedAt` `$gte` a date after 1970): its partial filter is one the query planner proves that
 * query implies (a comparison of the same type and direction with a lower bound; MongoDB manual, "Partial Indexes", "Query
 * Coverage"). A `$type: 'date'` filter, which the index had before under the name {@link REPLACED_ERASURE_INDEX}, is never implied
 * by a comparison, so every read scanned the collection.
 */
const ERASURE_INDEX = {
  key: { erasedAt: 1 },
  name: 'erased_at_since_1970',
  partialFilterExpression: { erasedAt: { $gte: new Date(0) } },
} as const;
/** Dropped first where it exists: a server before 5.0 refuses a second index of one key that differs only in its filter. */
const REPLACED_ERASURE_INDEX = 'erasedAt_1';
/** `dropIndex` of an index the collection does not have. */
const INDEX_NOT_FOUND = 27;

/**
 * `DataKeyStore` on MongoDB: `data_keys`, one document per trainee; the unique `_id` decides between replicas' concurrent `ensure`. A
 * destroy nulls the key, then deletes the trainee's registration claims (`MongoRegistrationReservations`); the storage engine and
 * backups may keep old bytes (docs/operations.md "The service key").
 */
export class MongoDataKeyStore implements DataKeyStore, RegistrationReservations {
  private readonly keys: Collection<KeyDocument>;
  private readonly reservations: MongoRegistrationReservations;
  private readonly erasuresIndexed: () => Promise<void>;

  constructor(db: Db) {
    this.keys = db.collection<KeyDocument>(DATA_KEY_COLLECTION);
    this.reservations = new MongoRegistrationReservations(db);
    this.erasuresIndexed = untilDone(async () => {
      await this.keys.dropIndex(REPLACED_ERASURE_INDEX).catch((error: unknown) => {
        if (!(error instanceof MongoServerError && error.code === INDEX_NOT_FOUND)) throw error;
      });
      await this.keys.createIndexes([ERASURE_INDEX]);
    });
  }

  readReservation(name: string): Promise<RegistrationReservation> {
    return this.reservations.read(name);
  }

  async writeReservation(name: string, version: number, claims: readonly RegistrationClaim[]): Promise<boolean> {
    if (claims.length === 0) throw new RangeError('a reservation holds at least one claim');
    return this.reservations.write(name, version, claims);
  }

  claimsMadeBefore(at: string, limit: number): Promise<NamedClaim[]> {
    return this.reservations.madeBefore(at, limit);
  }

  releaseClaims(claims: readonly NamedClaim[]): Promise<void> {
    return this.reservations.release(claims);
  }

  async ensure(traineeId: string, wrapped: Buffer): Promise<Buffer | 'erased'> {
    try {
      await this.keys.updateOne({ _id: traineeId }, { $setOnInsert: { wrapped: new Binary(wrapped), erasedAt: null } }, { upsert: true });
    } catch (err) {
      // Two upserts of one new _id at once: one inserts, the other fails with a duplicate key and reads it.
      if (!(err instanceof MongoServerError && err.code === DUPLICATE_KEY)) throw err;
    }
    const stored = await this.get(traineeId);
    if (stored === null) throw new Error(`the data key of trainee ${traineeId} was not stored`);
    return stored;
  }

  /**
   * All of `entries` or none, as on SQLite: one ordered `insertMany`; on failure (an id held, or a lost connection) the entries this call
   * stored are deleted again by id and wrapped bytes (sent again after a step-down: `retryMultiWrite`), and the error thrown. No
   * transaction (a standalone server has none); a crash between leaves keys of ids never handed out.
   */
  async reserve(entries: ReadonlyArray<{ traineeId: string; wrapped: Buffer }>): Promise<void> {
    if (entries.length === 0) return;
    const docs = entries.map((e) => ({ _id: e.traineeId, wrapped: new Binary(e.wrapped), erasedAt: null }));
    try {
      await this.keys.insertMany(docs, { ordered: true });
    } catch (error) {
      await retryMultiWrite(() => this.keys.deleteMany({ $or: docs.map(({ _id, wrapped }) => ({ _id, wrapped })) }));
      throw error;
    }
  }

  async get(traineeId: string): Promise<Buffer | null | 'erased'> {
    const doc = await this.keys.findOne({ _id: traineeId }, { readConcern: { level: 'majority' } });
    if (!doc) return null;
    return doc.wrapped === null ? 'erased' : Buffer.from(doc.wrapped.buffer);
  }

  async destroy(traineeId: string, at: Date): Promise<boolean> {
    const destroyed = await this.destroyKey(traineeId, at);
    // Its registration claims go too, after the key (run again, an erasure finishes this part).
    await this.reservations.forgetTrainee(traineeId);
    return destroyed;
  }

  private async destroyKey(traineeId: string, at: Date): Promise<boolean> {
    const destroyed = await this.keys.updateOne({ _id: traineeId, wrapped: { $ne: null } }, { $set: { wrapped: null, erasedAt: at } });
    if (destroyed.modifiedCount > 0) return true;
    try {
      await this.keys.updateOne({ _id: traineeId }, { $setOnInsert: { wrapped: null, erasedAt: at } }, { upsert: true });
    } catch (err) {
      if (!(err instanceof MongoServerError && err.code === DUPLICATE_KEY)) throw err;
    }
    return false;
  }

  async wrappedAfter(after: string | null, limit: number): Promise<Array<{ traineeId: string; wrapped: Buffer }>> {
    const filter = after === null ? { wrapped: { $ne: null } } : { _id: { $gt: after }, wrapped: { $ne: null } };
    const docs = await this.keys
      .find(filter, { readConcern: { level: 'majority' } })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => ({ traineeId: d._id, wrapped: Buffer.from(d.wrapped!.buffer) }));
  }

  async replace(traineeId: string, expected: Buffer, wrapped: Buffer): Promise<boolean> {
    const replaced = await this.keys.updateOne(
      { _id: traineeId, wrapped: new Binary(expected) },
      { $set: { wrapped: new Binary(wrapped) } },
    );
    return replaced.modifiedCount > 0;
  }

  /** `mark` in epoch ms; erasures from a minute before it (clocks differ), read at most every {@link ERASURES_READ_EVERY_MS}. */
  async erasedSince(mark: number | null): Promise<{ mark: number; traineeIds: string[] }> {
    const now = Date.now();
    if (mark === null) return { mark: now, traineeIds: [] };
    if (now - mark < ERASURES_READ_EVERY_MS) return { mark, traineeIds: [] };
    await this.erasuresIndexed();
    const erased = await this.keys
      .find({ erasedAt: { $gte: new Date(mark - ERASURE_CLOCK_SLACK_MS) } }, { projection: { _id: 1 } })
      .toArray();
    return { mark: now, traineeIds: erased.map((d) => d._id) };
  }

  /** The client is the read model's; it closes it. */
  async close(): Promise<void> {}
}
