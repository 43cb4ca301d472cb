import { MongoClient, MongoServerError, type Db, type WriteConcernSettings } from 'mongodb';
import { PROJECTION_VERSION, type ProjectionName } from '@app/runtime/projector';
import { redact } from '@app/runtime/process';

/**
 * Collections shared by every store: the checkpoints and the registry naming the store each
 * projection serves from. The stores' own collections are named by `mongoStoreCollections`.
 */
export const MONGO_COLLECTIONS = {
  checkpoints: 'projection_checkpoints',
  registry: 'projection_registry',
} as const;

/** Database used when neither the options nor the connection string name one. */
export const DEFAULT_MONGO_DB_NAME = 'trainee_records';

/** Options of `MongoReadModel.connect`. */
export interface MongoReadModelOptions {
  /** Database to use; default: the one in the connection string, else `trainee_records`. */
  dbName?: string;
  /**
   * The projection versions this code builds (default `PROJECTION_VERSIONS`); as the
   * SQLite adapter's option of the same name, for tests of a version change.
   */
  codeVersions?: Partial<Record<ProjectionName, number>>;
  /**
   * How long a live batch may write the store it found unlocked, in ms (default
   * `LIVE_WRITE_WINDOW_MS`, 30 000); a swap drops the old store this long plus 5 s after taking its
   * lock (./read-models/write-fence.ts). Shorter in tests.
   */
  liveWriteWindowMs?: number;
}

/**
 * `_id` of the single checkpoint of the read models before each projection had its own store
 * (both served from `*_v1`): found in a database without a registry, it is adopted as the
 * checkpoint of both `v1` stores (as `SqliteReadModel` does).
 */
export const LEGACY_CHECKPOINT_ID = `main_v${PROJECTION_VERSION}`;

/**
 * Every write waits for a majority of the replica set and for the journal, so an acknowledged
 * projection write survives a `kill -9` or a failover (docs/DESIGN.md property 4). On a standalone
 * server `majority` means the one node.
 */
export const WRITE_CONCERN: WriteConcernSettings = { w: 'majority', journal: true };

/** MongoDB's duplicate key error code (E11000). */
export const DUPLICATE_KEY = 11000;

/**
 * Server error codes of a read whose collection was dropped under it: NamespaceNotFound,
 * CursorNotFound, QueryPlanKilled ("collection dropped"), CursorKilled. A read that fails with
 * one of them right after a swap is retried on the store the registry now names.
 */
const STORE_GONE_CODES = new Set([26, 43, 175, 237]);

/** How many times a bulk write is re-sent for operations that lost an upsert race. */
export const MAX_WRITE_ATTEMPTS = 3;

/**
 * Lease of the swap lock (see `MongoReadModel` "Swap"): the live projector waits while a
 * lock younger than this is held; the swapping process renews it after every catch-up batch. A
 * swapper that dies holding it delays the live projector by at most this long.
 */
export const SWAP_LEASE_MS = 30_000;

/** How often a live `applyBatch` looks at the registry again while a swap lock is held. */
export const SWAP_LOCK_POLL_MS = 25;

/**
 * Connects a client to the database of `url` (`dbName` when given, else the connection string's,
 * else {@link DEFAULT_MONGO_DB_NAME}), with {@link WRITE_CONCERN} and `ignoreUndefined`.
 * Throws an `Error` naming the accepted schemes when `url` is not `mongodb://` or
 * `mongodb+srv://` (with any password redacted), and the driver's error when the server cannot be
 * reached (the client is then closed).
 */
export async function openDatabase(url: string, dbName?: string): Promise<{ client: MongoClient; db: Db }> {
  const scheme = /^(mongodb(?:\+srv)?):\/\//.exec(url);
  if (!scheme) {
    throw new Error(`MONGODB_URL must be a MongoDB connection string starting with mongodb:// or mongodb+srv://, got '${redact(url)}'`);
  }
  const name = dbName ?? (databaseInUrl(url, scheme[0].length) || DEFAULT_MONGO_DB_NAME);
  const client = new MongoClient(url, { ignoreUndefined: true });
  try {
    await client.connect();
    return { client, db: client.db(name, { writeConcern: WRITE_CONCERN, ignoreUndefined: true }) };
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
}

/** The database named in a connection string's path (`…/name?…`), or '' when none. */
function databaseInUrl(url: string, schemeLength: number): string {
  const rest = url.slice(schemeLength);
  const slash = rest.indexOf('/');
  if (slash < 0) return '';
  return decodeURIComponent(rest.slice(slash + 1).split('?')[0]);
}

/**
 * A JSON round trip: the stored document then equals what the SQLite adapter returns (keys
 * holding `undefined` are dropped, never stored as BSON null).
 */
export function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Waits for every promise, then throws the first rejection (so no write is left running). */
export async function settleAll(promises: Promise<void>[]): Promise<void> {
  const results = await Promise.allSettled(promises);
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) throw failure.reason;
}

/** True when `error` is a server error of a read whose collection was dropped under it. */
export function isStoreGone(error: unknown): boolean {
  return error instanceof MongoServerError && STORE_GONE_CODES.has(Number(error.code));
}

/** Runs `write`, again when it fails with E11000 (an upsert that lost a race), at most {@link MAX_WRITE_ATTEMPTS} times. */
export async function retryDuplicateKey<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof MongoServerError) || error.code !== DUPLICATE_KEY || attempt >= MAX_WRITE_ATTEMPTS) throw error;
    }
  }
}

/**
 * A step that must succeed once (an index a store needs), run by the first call and shared by the
 * calls made while it runs. Once it has succeeded it is never run again; when it fails, the calls
 * waiting on it get its error and the next call runs it again. A failure at start (a primary
 * stepping down while the index is built) so costs the calls of that moment, never every later one.
 */
export function untilDone(step: () => Promise<unknown>): () => Promise<void> {
  let running: Promise<void> | null = null;
  return () =>
    (running ??= step().then(
      () => undefined,
      (error: unknown) => {
        running = null;
        throw error;
      },
    ));
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The current instant, ISO 8601 UTC. */
export function now(): string {
  return new Date().toISOString();
}
