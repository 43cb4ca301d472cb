import { ObjectId, type Collection, type Db } from 'mongodb';
import type { PageSessionBounds, PageSessionPool, PageSessionStore, StoredPageSession } from '@app/runtime/page-sessions';
import { retryMultiWrite, untilDone } from './mongo-connection';

interface SessionDocument {
  /** SHA-256 of the cookie's id. */
  _id: string;
  pool: PageSessionPool;
  owner: string;
  data: string;
  started_at: number;
  /** The TTL index's field: the server deletes the document once it has passed. */
  expires_at: Date;
  /** The order sessions were added in: increasing within a process, by the second across processes. */
  added: ObjectId;
}

/** Collection of the uploads page's sessions, beside the read models, outside the projections. */
export const PAGE_SESSIONS_COLLECTION = 'page_sessions';

/**
 * The uploads page's sessions on MongoDB: collection `page_sessions`, `_id` the id's hash, a TTL index on `expires_at` (the server
 * deletes expired sessions within its monitor's minute; until then `find` skips them), an index by pool, owner and order; majority,
 * journaled writes, so a session added on one replica is found on any other. The bounds are checked then written in steps, not one
 * transaction: replicas adding at the same moment may each pass a bound by one session, which the next add takes back.
 */
export class MongoPageSessionStore implements PageSessionStore {
  private readonly sessions: Collection<SessionDocument>;
  private readonly indexed: () => Promise<void>;

  constructor(db: Db) {
    this.sessions = db.collection<SessionDocument>(PAGE_SESSIONS_COLLECTION);
    this.indexed = untilDone(async () => {
      await this.sessions.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0 });
      await this.sessions.createIndex({ pool: 1, owner: 1, added: 1 });
    });
  }

  async add(session: StoredPageSession, bounds: PageSessionBounds, nowMs: number): Promise<void> {
    await this.indexed();
    const { pool, owner } = session;
    if ((await this.sessions.countDocuments({ pool, owner })) >= bounds.perOwner) {
      await this.removeOldest(pool, owner);
    } else if ((await this.sessions.countDocuments({ pool })) >= bounds.all) {
      const expired = await retryMultiWrite(() => this.sessions.deleteMany({ pool, expires_at: { $lte: new Date(nowMs) } }));
      if (expired.deletedCount === 0) await this.removeOldest(pool, await this.largestOwner(pool, owner));
    }
    await this.sessions.insertOne({
      _id: session.key,
      pool,
      owner,
      data: session.data,
      started_at: session.startedAt,
      expires_at: new Date(session.expiresAt),
      added: new ObjectId(),
    });
  }

  async find(key: string, nowMs: number): Promise<StoredPageSession | null> {
    const doc = await this.sessions.findOne({ _id: key, expires_at: { $gt: new Date(nowMs) } });
    if (!doc) return null;
    return {
      key: doc._id,
      pool: doc.pool,
      owner: doc.owner,
      data: doc.data,
      startedAt: doc.started_at,
      expiresAt: doc.expires_at.getTime(),
    };
  }

  async update(key: string, data: string, expiresAt: number): Promise<boolean> {
    const result = await this.sessions.updateOne({ _id: key }, { $set: { data, expires_at: new Date(expiresAt) } });
    return result.matchedCount > 0;
  }

  async remove(key: string): Promise<boolean> {
    return (await this.sessions.deleteOne({ _id: key })).deletedCount > 0;
  }

  async removeExpired(nowMs: number): Promise<number> {
    return (await retryMultiWrite(() => this.sessions.deleteMany({ expires_at: { $lte: new Date(nowMs) } }))).deletedCount;
  }

  async count(pool: PageSessionPool): Promise<number> {
    return this.sessions.countDocuments({ pool });
  }

  /** The connection is the read model's. */
  async close(): Promise<void> {}

  private async removeOldest(pool: PageSessionPool, owner: string): Promise<void> {
    await this.sessions.findOneAndDelete({ pool, owner }, { sort: { added: 1 } });
  }

  /** The owner holding most in `pool`; `preferred` on a tie, else the one whose oldest is older. */
  private async largestOwner(pool: PageSessionPool, preferred: string): Promise<string> {
    const owners = await this.sessions
      .aggregate<{ _id: string; held: number; first: ObjectId }>([
        { $match: { pool } },
        { $group: { _id: '$owner', held: { $sum: 1 }, first: { $min: '$added' } } },
        { $sort: { held: -1, first: 1 } },
      ])
      .toArray();
    const most = owners[0]?.held ?? 0;
    return owners.find((o) => o._id === preferred && o.held === most)?._id ?? owners[0]?._id ?? preferred;
  }
}
