import { MongoServerError, type Collection, type Db } from 'mongodb';
import { windowStart, type WindowCounter } from '@app/runtime/admission';
import { untilDone } from './mongo-connection';

/** A key's count in one window; MongoDB removes it once `expires_at` has passed (TTL index). */
interface WindowDocument {
  _id: string;
  count: number;
  expires_at: Date;
}

/** The collection of the rate-limit windows, beside the read models. */
export const RATE_LIMIT_COLLECTION = 'rate_limit_windows';

/**
 * A {@link WindowCounter} in MongoDB, so that every API replica on the same database counts against
 * the same limits (docs/operations.md "Limits", admission). One document per key and window
 * (`<key>@<window start>`), incremented atomically with `$inc` and an upsert; a TTL index on
 * `expires_at` (the window's end plus a minute) lets the server remove past windows (created by the
 * first hit, and by the next one again when it failed). Driver errors
 * reach the caller (the rate limiter answers 500 then: a limit that cannot be counted is not
 * silently lifted).
 */
export class MongoWindowCounter implements WindowCounter {
  private readonly windows: Collection<WindowDocument>;
  private readonly indexed: () => Promise<void>;

  constructor(db: Db) {
    this.windows = db.collection<WindowDocument>(RATE_LIMIT_COLLECTION);
    this.indexed = untilDone(() => this.windows.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0 }));
  }

  async hit(key: string, windowMs: number, nowMs: number): Promise<{ count: number; windowEndMs: number }> {
    await this.indexed();
    const start = windowStart(nowMs, windowMs);
    const id = `${key}@${start}`;
    const update = () =>
      this.windows.findOneAndUpdate(
        { _id: id },
        { $inc: { count: 1 }, $setOnInsert: { expires_at: new Date(start + windowMs + 60_000) } },
        { upsert: true, returnDocument: 'after' },
      );
    let doc: WindowDocument | null;
    try {
      doc = await update();
    } catch (err) {
      // Two first requests of a window at once: one upsert inserts, the other meets the new document.
      if (!(err instanceof MongoServerError && err.code === 11000)) throw err;
      doc = await update();
    }
    return { count: doc?.count ?? 1, windowEndMs: start + windowMs };
  }
}
