import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoReadModel } from '@app/stores/mongodb';

/**
 * The MongoDB adapters' suites run only against a real server, named by `MONGODB_URL`; there is
 * none on a machine without one, and a mock would prove nothing (docs/operations.md "Its tests").
 * Without it, a suite is reported as skipped, loudly: a warning line and a skipped test
 * whose title says why, never a silent pass.
 */

/**
 * `MONGODB_URL` when it is set; otherwise registers `title` as one skipped test named
 * `<what> SKIPPED: MONGODB_URL is not set (no server on this machine)`, warns the same, and
 * returns null (the caller then registers nothing else).
 */
export function mongoUrlOrSkip(title: string, what: string): string | null {
  const url = process.env.MONGODB_URL;
  if (url) return url;
  const skipped = `${what} SKIPPED: MONGODB_URL is not set (no server on this machine)`;
  describe(title, () => {
    console.warn(skipped);
    it.skip(skipped, () => undefined);
  });
  return null;
}

/** A store on a fresh database, another connection to it, and the cleanup (see {@link perTestDatabase}). */
export interface MongoStoreFixture<S> {
  store: S;
  /** The same store on another client of the same database (another replica, or a restarted process). */
  reopen(): Promise<S>;
  /** Closes every client and drops the database. */
  cleanup(): Promise<void>;
}

/**
 * Opens, for each call, a store on a database of its own (`<prefix>_<run>_<n>`, unique per run;
 * database names are limited to 63 bytes), through a read model's connection as the service opens
 * its stores: `storeOf` gives the store of one connection.
 */
export function perTestDatabase<S>(
  url: string,
  prefix: string,
  storeOf: (readModel: MongoReadModel) => S | Promise<S>,
): () => Promise<MongoStoreFixture<S>> {
  const runId = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  let tests = 0;
  return async () => {
    const dbName = `${runId}_${++tests}`;
    const opened: MongoReadModel[] = [];
    const open = async (): Promise<S> => {
      const readModel = await MongoReadModel.connect(url, { dbName });
      opened.push(readModel);
      return storeOf(readModel);
    };
    return {
      store: await open(),
      reopen: open,
      cleanup: async () => {
        for (const rm of opened) await rm.close();
        const admin = new MongoClient(url);
        try {
          await admin.db(dbName).dropDatabase();
        } finally {
          await admin.close();
        }
      },
    };
  };
}
