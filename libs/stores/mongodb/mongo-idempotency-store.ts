import { randomUUID } from 'node:crypto';
import { MongoServerError, type Collection, type Db } from 'mongodb';
import { DUPLICATE_KEY, retryMultiWrite, untilDone } from './mongo-connection';
import {
  IDEMPOTENCY_CLAIM_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
  type IdempotencyClaim,
  type IdempotencyStore,
  type StoredAnswer,
} from '@app/runtime/idempotency';

interface KeyDocument {
  /** `[scope, key]` as JSON: one document per token and key. */
  _id: string;
  fingerprint: string;
  claim: string;
  status: number | null;
  contentType: string | null;
  body: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/** Collection of the idempotency keys, outside the versioned projection collections. */
export const IDEMPOTENCY_COLLECTION = 'idempotency_keys';

/**
 * The idempotency keys on MongoDB: collection `idempotency_keys`, `_id` = (scope, key), a TTL
 * index on `expiresAt` (the server deletes expired entries; until it does they count as free;
 * created by the first claim, and by the next one again when it failed), and majority, journaled
 * writes. The unique `_id` decides between concurrent claims across API
 * replicas: the second insert fails with a duplicate key and reads what holds the key.
 */
export class MongoIdempotencyStore implements IdempotencyStore {
  private readonly keys: Collection<KeyDocument>;
  private readonly indexed: () => Promise<void>;

  constructor(db: Db) {
    this.keys = db.collection<KeyDocument>(IDEMPOTENCY_COLLECTION);
    this.indexed = untilDone(() => this.keys.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 }));
  }

  async claim(scope: string, key: string, fingerprint: string, now: Date): Promise<IdempotencyClaim> {
    await this.indexed();
    const _id = JSON.stringify([scope, key]);
    const staleClaim = new Date(now.getTime() - IDEMPOTENCY_CLAIM_LEASE_MS);
    await this.keys.deleteOne({ _id, $or: [{ expiresAt: { $lte: now } }, { status: null, createdAt: { $lte: staleClaim } }] });
    const claim = randomUUID();
    try {
      await this.keys.insertOne({
        _id,
        fingerprint,
        claim,
        status: null,
        contentType: null,
        body: null,
        createdAt: now,
        expiresAt: expiry(now),
      });
      return { outcome: 'claimed', claim };
    } catch (err) {
      if (!(err instanceof MongoServerError && err.code === DUPLICATE_KEY)) throw err;
    }
    const held = await this.keys.findOne({ _id });
    // Deleted between the insert and the read (expired just then): the key is being freed, as good as in progress.
    if (!held) return { outcome: 'in-progress' };
    if (held.fingerprint !== fingerprint) return { outcome: 'mismatch' };
    if (held.status === null) return { outcome: 'in-progress' };
    return { outcome: 'replay', answer: { status: held.status, contentType: held.contentType ?? '', body: held.body ?? '' } };
  }

  async complete(scope: string, key: string, claim: string, answer: StoredAnswer): Promise<void> {
    await this.keys.updateOne(
      { _id: JSON.stringify([scope, key]), claim },
      { $set: { status: answer.status, contentType: answer.contentType, body: answer.body } },
    );
  }

  async release(scope: string, key: string, claim: string): Promise<void> {
    await this.keys.deleteOne({ _id: JSON.stringify([scope, key]), claim, status: null });
  }

  /** Sent again after a step-down (`retryMultiWrite`); the count is then the last attempt's, without what the first deleted. */
  async forget(text: string): Promise<number> {
    const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return (await retryMultiWrite(() => this.keys.deleteMany({ body: { $regex: escaped } }))).deletedCount;
  }

  /** Counted as {@link forget}'s. */
  async prune(now: Date): Promise<number> {
    return (await retryMultiWrite(() => this.keys.deleteMany({ expiresAt: { $lte: now } }))).deletedCount;
  }

  close(): void {
    // The client belongs to the read model that created this store, which closes it.
  }
}

function expiry(now: Date): Date {
  return new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
}
