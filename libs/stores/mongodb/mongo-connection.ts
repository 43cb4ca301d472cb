import { MongoClient, MongoServerError, type Db, type WriteConcernSettings } from 'mongodb';
import { PROJECTION_VERSION, type ProjectionName } from '@app/runtime/projector';
import { redact } from '@app/runtime/process';
import { isRetryableMongoWrite } from './unavailable';

/** Shared by every store; the stores' own are named by `mongoStoreCollections`. */
export const MONGO_COLLECTIONS = {
  checkpoints: 'projection_checkpoints',
  registry: 'projection_registry',
} as const;

export const DEFAULT_MONGO_DB_NAME = 'trainee_records';

export interface MongoReadModelOptions {
  /** Default: the connection string's, else `trainee_records`. */
  dbName?: string;
  /** The projection versions this code builds, as the SQLite adapter's option: for tests of a version change. */
  codeVersions?: Partial<Record<ProjectionName, number>>;
  /** Ms a live batch may write the store it found unlocked (./read-models/write-fence.ts); shorter in tests. */
  liveWriteWindowMs?: number;
}

/** The one checkpoint from before each projection had its store: found without a registry, adopted for both `v1` stores, as on SQLite. */
export const LEGACY_CHECKPOINT_ID = `main_v${PROJECTION_VERSION}`;

/** Ms a write waits for a majority to acknowledge it, unless `MONGODB_URL` names `wtimeoutMS` (docs/operations.md "Configuration"). */
export const DEFAULT_WRITE_TIMEOUT_MS = 10_000;

/**
 * The write concern of every store's writes, set on their `Db` by {@link openDatabase}: majority and journal, so an acknowledged write
 * survives `kill -9` or failover (docs/DESIGN.md property 4), waited for at most `wtimeoutMS`: the connection string's, else
 * {@link DEFAULT_WRITE_TIMEOUT_MS} (`0`: no limit). Without it a write waits as long as no majority can acknowledge it (a secondary of
 * three down, another lagging). Past it the write, applied on the primary and perhaps kept, fails with the driver's
 * `MongoWriteConcernError` (`MongoBulkWriteError` from a bulk write), which `isMongoUnavailable` tells.
 */
export function writeConcernOf(client: MongoClient): WriteConcernSettings {
  return { w: 'majority', journal: true, wtimeoutMS: client.writeConcern?.wtimeoutMS ?? DEFAULT_WRITE_TIMEOUT_MS };
}

export const DUPLICATE_KEY = 11000;

/** A read whose collection was dropped under it: NamespaceNotFound, CursorNotFound, QueryPlanKilled, CursorKilled. */
const STORE_GONE_CODES = new Set([26, 43, 175, 237]);

/** Sends of a bulk write whose upserts lost a race. */
export const MAX_WRITE_ATTEMPTS = 3;

/** The swap lock's lease, renewed after every catch-up batch: a swapper that dies holding it delays live batches this long at most. */
export const SWAP_LEASE_MS = 30_000;

export const SWAP_LOCK_POLL_MS = 25;

/**
 * With {@link writeConcernOf} the client's and `ignoreUndefined`; the stores write with the `Db`'s write concern, naming none of their
 * own. An Error naming the accepted schemes (password redacted) unless `mongodb://` or
 * `mongodb+srv://`; the driver's error when the server cannot be reached (the client then closed).
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
    return { client, db: client.db(name, { writeConcern: writeConcernOf(client), ignoreUndefined: true }) };
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
}

/** From the path (`…/name?…`), or ''. */
function databaseInUrl(url: string, schemeLength: number): string {
  const rest = url.slice(schemeLength);
  const slash = rest.indexOf('/');
  if (slash < 0) return '';
  return decodeURIComponent(rest.slice(slash + 1).split('?')[0]);
}

/** A JSON round trip, so the stored document equals the SQLite adapter's answer (`undefined` keys dropped, never BSON null). */
export function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Then throws the first rejection, so no write is left running. */
export async function settleAll(promises: Promise<void>[]): Promise<void> {
  const results = await Promise.allSettled(promises);
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) throw failure.reason;
}

export function isStoreGone(error: unknown): boolean {
  return error instanceof MongoServerError && STORE_GONE_CODES.has(Number(error.code));
}

/** Again on E11000 (an upsert that lost a race), at most {@link MAX_WRITE_ATTEMPTS} times. */
export async function retryDuplicateKey<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof MongoServerError) || error.code !== DUPLICATE_KEY || attempt >= MAX_WRITE_ATTEMPTS) throw error;
    }
  }
}

/** Attempts of a multi-document write: as many as the driver gives a retryable write without a timeout (`execute_operation.ts`). */
export const MULTI_WRITE_ATTEMPTS = 2;

/**
 * `write` (an `updateMany` or `deleteMany`, which the driver never retries: `operations/update.ts` and `operations/delete.ts`
 * `canRetryWrite` are false for a multi-document statement) sent again after an error on which the driver would retry a retryable
 * write ({@link isRetryableMongoWrite}: a step-down, a lost connection), at most {@link MULTI_WRITE_ATTEMPTS} times in all; the
 * driver selects a primary for the next attempt, waiting for an election. `write` is told whether an attempt failed before it, which
 * may have done all or part of it, so each `write` must give the same documents when run again; its result is the last attempt's.
 */
export async function retryMultiWrite<T>(write: (again: boolean) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write(attempt > 1);
    } catch (error) {
      if (attempt >= MULTI_WRITE_ATTEMPTS || !isRetryableMongoWrite(error)) throw error;
    }
  }
}

/**
 * A step that must succeed once (an index a store needs), shared by the calls made while it runs; after a failure the next call runs
 * it again, so a failure at start (a primary stepping down) costs that moment's calls, never every later one.
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

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** ISO 8601 UTC. */
export function now(): string {
  return new Date().toISOString();
}
