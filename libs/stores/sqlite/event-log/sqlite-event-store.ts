/**
 * SQLite adapter of the event store port (docs/DESIGN.md "The event store port": one append-only
 * table, global position as the integer primary key, unique `(stream_id, revision)` and unique
 * event id, WAL mode, appends committed in groups, "Group commit").
 *
 * better-sqlite3 is synchronous; every port method runs its statements synchronously and returns a
 * settled promise, so a thrown error always surfaces as a rejection, except appends, which are
 * group-committed ({@link GroupCommit}): the appends of one turn of the event loop share one write
 * transaction and its fsync, each in its own savepoint, and each settles once that has committed.
 *
 * Ordering guarantee: positions are assigned by `AUTOINCREMENT` inside the `BEGIN IMMEDIATE` write
 * transaction of each append, and write transactions on one file are serialised across connections
 * and OS processes. Position N+1 is therefore never committed before position N, and any snapshot
 * that contains position H contains every position below H. Subscriptions rely on this: do not
 * assign positions outside the write transaction.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Database, makePrivateDirectory, openPrivateDatabase, lockWait } from '@app/sqlite';
import { GroupCommit } from './group-commit';
import { StreamAppends, type AppendOutcome } from './stream-appends';
import {
  AppendOptions,
  AppendResult,
  EventData,
  EventFilter,
  EventStore,
  logPosition,
  LogPosition,
  ReadAllOptions,
  ReadStreamOptions,
  ReadStoredStreamsOptions,
  ReadStreamsOptions,
  StoredEventText,
  StreamWrite,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from '@app/event-sourcing';
import { appendSignals, SqliteSubscription } from './sqlite-subscription';
import { FilteredReads } from './filtered-reads';
import { StoredStreams } from './stored-streams';
import { StreamScan } from './stream-scan';
import { SCHEMA_SQL, SCHEMA_VERSION } from './schema';
import {
  assertNonNegativeInteger,
  checkedWrite,
  rawToRecordedEvent,
  toRecordedEvent,
  type EventRow,
  type QueuedWrite,
  type RawEventRow,
} from './sqlite-rows';

/** Options of {@link SqliteEventStore}. */
export interface SqliteEventStoreOptions {
  /** Path of the database file, or `:memory:` for a private in-memory store (unit tests). */
  filename: string;
  /**
   * Milliseconds between two polls of a live subscription, which is how it sees appends made by
   * other OS processes (appends of this process wake it at once). Default 100.
   */
  pollIntervalMs?: number;
  /** Milliseconds a writer waits for another connection's write lock before failing. Default the process's `lockWait()` (5000). */
  busyTimeoutMs?: number;
  /**
   * SQLite `synchronous` level. `full` (default) fsyncs the WAL at each commit, so an acknowledged
   * append survives a power loss as well as a `kill -9` (docs/DESIGN.md property 4); `normal` survives
   * a process crash only and is faster.
   */
  synchronous?: 'full' | 'normal';
  /**
   * Where appends are committed, when not on this connection: the writer of a projection thread
   * (`ProjectionThread`), which commits the checked and serialized units of work in its own group
   * commits and answers their outcomes. This connection then only reads.
   */
  appendThrough?: (unit: QueuedWrite[]) => Promise<AppendOutcome[]>;
  /**
   * Whether appends on this connection chain each stream's events (docs/DESIGN.md "Verifiable
   * history"); default true. False stores new events unchained, for the bench's comparison only
   * (`HASH_CHAIN`; production refuses it).
   */
  hashChain?: boolean;
}

/** Default number of events one `readAll` call returns (port: {@link ReadAllOptions.maxCount}). */
export const DEFAULT_READ_ALL_MAX_COUNT = 1000;
/** Default polling interval of live subscriptions, in milliseconds. */
export const DEFAULT_POLL_INTERVAL_MS = 100;
/** Events a subscription reads per query while catching up. */
const SUBSCRIPTION_BATCH_SIZE = 500;
const COLUMNS = 'position, id, stream_id, revision, type, data, metadata';

export type { AppendOutcome } from './stream-appends';

let memoryStoreCounter = 0;

/**
 * {@link EventStore} on one SQLite file (better-sqlite3), safe for several connections and OS
 * processes on the same file (WAL mode, `busy_timeout`, `BEGIN IMMEDIATE` appends).
 * Source: docs/DESIGN.md "The event store port".
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly key: string;
  /** The database file's real path; null for an in-memory store. */
  readonly file: string | null;
  private readonly pollIntervalMs: number;
  private readonly appendThrough: SqliteEventStoreOptions['appendThrough'];
  private readonly subscriptions = new Set<SqliteSubscription>();
  private closed = false;

  private readonly streamAppends: StreamAppends;
  private readonly storedStreams: StoredStreams;
  /** A stream's rows as arrays (raw mode: no object per row). */
  private readonly selectStream: Database.Statement<[string, number, number], RawEventRow>;
  private readonly selectAll: Database.Statement<[number, number], EventRow>;
  private readonly selectHead: Database.Statement<[], { head: number | null }>;
  private readonly streamScan: StreamScan;
  private readonly filtered: FilteredReads;
  /** Appends: a unit is one append, or the writes of one all-or-nothing multi-stream append. */
  private readonly appends: GroupCommit<QueuedWrite[], AppendOutcome[]>;
  private readonly snapshotTransaction: Database.Transaction<
    (fromPosition: number, maxCount: number, filter: EventFilter | undefined) => { events: RecordedEvent[]; scannedTo: number }
  >;

  /**
   * Opens (creating if needed) the store at `options.filename` and its schema.
   * Throws a RangeError for a non-positive `pollIntervalMs`, and SQLite's error when the file
   * cannot be opened.
   */
  constructor(options: SqliteEventStoreOptions) {
    const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    if (!(pollIntervalMs > 0) || !Number.isFinite(pollIntervalMs)) {
      throw new RangeError(`pollIntervalMs must be a positive number of milliseconds, got ${pollIntervalMs}`);
    }
    const busyTimeoutMs = options.busyTimeoutMs ?? lockWait();
    this.pollIntervalMs = pollIntervalMs;
    this.appendThrough = options.appendThrough;

    const inMemory = options.filename === ':memory:' || options.filename === '';
    this.db = openPrivateDatabase(options.filename, { timeout: busyTimeoutMs });
    try {
      this.db.pragma(`busy_timeout = ${Math.floor(busyTimeoutMs)}`);
      this.db.pragma('journal_mode = WAL');
      this.db.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
      this.db
        .transaction(() => {
          const version = this.db.pragma('user_version', { simple: true }) as number;
          if (version > SCHEMA_VERSION) {
            throw new Error(`${options.filename} has event store schema ${version}; this code knows ${SCHEMA_VERSION}`);
          }
          this.db.exec(SCHEMA_SQL);
          if (version < SCHEMA_VERSION) this.db.pragma(`user_version = ${SCHEMA_VERSION}`);
        })
        .immediate();
    } catch (error) {
      this.db.close();
      throw error;
    }
    this.key = inMemory ? `:memory:#${++memoryStoreCounter}` : fs.realpathSync(path.resolve(options.filename));
    this.file = inMemory ? null : this.key;

    this.selectStream = this.db
      .prepare<[string, number, number], RawEventRow>(
        `SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?`,
      )
      .raw(true);
    this.selectAll = this.db.prepare(`SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`);
    this.selectHead = this.db.prepare('SELECT MAX(position) AS head FROM events');
    this.streamScan = new StreamScan(this.db);
    this.storedStreams = new StoredStreams(this.db);
    this.streamAppends = new StreamAppends(this.db, options.hashChain ?? true);
    this.filtered = new FilteredReads(this.db, COLUMNS);
    this.appends = new GroupCommit(
      this.db,
      (writes: QueuedWrite[]) => {
        const recordedAt = new Date().toISOString();
        return writes.map((w) => this.streamAppends.append(w, recordedAt));
      },
      (committed) => {
        if (committed.some((outcomes) => outcomes.some((o) => o.written))) appendSignals.emit(this.key);
      },
    );
    this.snapshotTransaction = this.db.transaction((fromPosition: number, maxCount: number, filter: EventFilter | undefined) => {
      const events = this.readAllNow(fromPosition, maxCount, filter);
      if (events.length === maxCount) return { events, scannedTo: events[events.length - 1].position };
      const head = this.selectHead.get()?.head ?? 0;
      return { events, scannedTo: Math.max(fromPosition, head) };
    });
  }

  /**
   * Appends `events` to `streamId` atomically (port: {@link EventStore.appendToStream}) in the next
   * group commit (see the file's comment); resolves once committed. `expectedRevision` defaults to `'any'`.
   *
   * - Idempotency (as EventStoreDB): when every id of the batch is already in `streamId` at
   *   consecutive revisions in the batch's order, returns the original result (revision and
   *   position of the batch's last event) and writes nothing, whatever `expectedRevision` says.
   *   When only some ids exist, or they exist in another stream or another order, rejects with
   *   {@link IdempotencyConflictError} (also for an id repeated inside the batch).
   * - Otherwise checks `expectedRevision` and rejects with {@link WrongExpectedVersionError}
   *   (actual = the stream's last revision or `'no_stream'`) on a mismatch.
   * - An empty batch checks the expected revision and returns the stream's current state:
   *   its last revision (-1 when the stream does not exist) and the position of its last event (0).
   *
   * Event ids must be UUIDs (stored lower-case, as EventStoreDB does); `data` must be JSON-
   * serialisable and `metadata` an object, otherwise rejects with a TypeError. Rejects with a
   * RangeError for a negative or fractional expected revision.
   */
  async appendToStream(streamId: string, events: EventData[], options: AppendOptions = {}): Promise<AppendResult> {
    this.assertOpen();
    const [outcome] = await this.submit([checkedWrite({ streamId, events, options })]);
    return outcome.result;
  }

  /**
   * Appends to several streams all-or-nothing (port: {@link EventStore.appendToStreams}): the writes
   * are one unit of the next group commit, in one savepoint, each checked as by
   * {@link appendToStream}; the first that throws rolls all of them back and rejects with its error.
   */
  async appendToStreams(writes: StreamWrite[]): Promise<AppendResult[]> {
    this.assertOpen();
    if (!Array.isArray(writes)) throw new TypeError('writes must be an array');
    const outcomes = await this.submit(writes.map(checkedWrite));
    return outcomes.map((o) => o.result);
  }

  /**
   * Commits checked units of work on this connection, each unit all-or-nothing, the units of one
   * turn of the event loop in one group commit (as {@link appendToStream} does); resolves with each
   * unit's outcomes, or rejects with the error of the first unit that failed (the others of the
   * group still commit). What a projection thread's writer runs for the appends posted to it.
   */
  appendWrites(unit: QueuedWrite[]): Promise<AppendOutcome[]> {
    this.assertOpen();
    return this.appends.submit(unit);
  }

  /** Wakes this store's live subscriptions: another connection of this process committed appends (a projection thread's writer). */
  signalAppended(): void {
    appendSignals.emit(this.key);
  }

  /** A unit of work committed here, or by the writer appends go through. */
  private submit(unit: QueuedWrite[]): Promise<AppendOutcome[]> {
    return this.appendThrough ? this.appendThrough(unit) : this.appends.submit(unit);
  }

  /**
   * Events of `streamId` with revision ≥ `fromRevision` (default 0), in revision order, at most
   * `maxCount` (default: all; one indexed range read of `(stream_id, revision)`, so a page costs
   * its events whatever the stream's length); `[]` for an unknown stream (port: {@link EventStore.readStream}).
   */
  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const { fromRevision, maxCount } = this.streamRange(options);
    return this.selectStream.all(streamId, fromRevision, maxCount).map(rawToRecordedEvent);
  }

  /**
   * The checked range of a stream read (the store open, `fromRevision` an integer ≥ 0, `maxCount`
   * an integer ≥ 1 when given): `maxCount` -1 for no limit, as SQLite reads a negative LIMIT.
   * Throws RangeError, as `readStream` documents.
   */
  private streamRange(options: ReadStreamOptions): { fromRevision: number; maxCount: number } {
    this.assertOpen();
    const fromRevision = options.fromRevision ?? 0;
    assertNonNegativeInteger('fromRevision', fromRevision);
    const maxCount = options.maxCount ?? -1; // SQLite: a negative LIMIT is no limit.
    if (options.maxCount !== undefined && (!Number.isInteger(maxCount) || maxCount < 1)) {
      throw new RangeError(`maxCount must be an integer ≥ 1, got ${maxCount}`);
    }
    return { fromRevision, maxCount };
  }

  /** One stream's events as stored, a range of revisions (port: {@link EventStore.readStoredStream}; the checks of `readStream`). */
  async readStoredStream(streamId: string, options: ReadStreamOptions = {}): Promise<StoredEventText[]> {
    const { fromRevision, maxCount } = this.streamRange(options);
    return this.storedStreams.stream(streamId, fromRevision, maxCount);
  }

  /**
   * Up to `maxCount` (default 1000) events with position > `fromPosition` (default 0) that match
   * `filter`, in position order; the filter runs in SQL (port: {@link EventStore.readAll}).
   * Rejects with a RangeError for a negative `fromPosition` or a `maxCount` below 1.
   */
  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const fromPosition = options.fromPosition ?? 0;
    const maxCount = options.maxCount ?? DEFAULT_READ_ALL_MAX_COUNT;
    assertNonNegativeInteger('fromPosition', fromPosition);
    if (!Number.isInteger(maxCount) || maxCount < 1) throw new RangeError(`maxCount must be an integer ≥ 1, got ${maxCount}`);
    return this.readAllNow(fromPosition, maxCount, options.filter);
  }

  /** Whole streams in stream-id order up to a position (port: {@link EventStore.readStreamsByPrefix}; see `StreamScan`). */
  async readStreamsByPrefix(options: ReadStreamsOptions): Promise<RecordedEvent[]> {
    this.assertOpen();
    return this.streamScan.streams(options);
  }

  /** Whole streams of every category as stored (port: {@link EventStore.readStoredStreams}; see `StoredStreams`). */
  async readStoredStreams(options: ReadStoredStreamsOptions): Promise<StoredEventText[]> {
    this.assertOpen();
    return this.storedStreams.streams(options);
  }

  /**
   * A catch-up subscription from `fromPosition` (exclusive, default 0) matching `filter` (port:
   * {@link EventStore.subscribeToAll}). It reads in batches until it reaches the head, then waits:
   * appends through any SqliteEventStore of this process on the same file wake it at once, and it
   * polls every `pollIntervalMs` for appends of other processes. Events come in position order,
   * each once. `unsubscribe()` (or `close()`) ends it; a pending `next()` then resolves `done`.
   */
  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    this.assertOpen();
    const fromPosition = options.fromPosition ?? 0;
    assertNonNegativeInteger('fromPosition', fromPosition);
    const subscription = new SqliteSubscription(
      {
        key: this.key,
        pollIntervalMs: this.pollIntervalMs,
        readBatch: (from, filter) => this.snapshotTransaction(from, SUBSCRIPTION_BATCH_SIZE, filter),
        forget: (s) => this.subscriptions.delete(s),
      },
      fromPosition,
      options.filter,
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  /** Position of the newest event, `LOG_START` when the store is empty (port: {@link EventStore.headPosition}). */
  async headPosition(): Promise<LogPosition> {
    return this.headPositionNow();
  }

  /** {@link headPosition}, synchronously. */
  headPositionNow(): LogPosition {
    this.assertOpen();
    return logPosition(this.selectHead.get()?.head ?? 0);
  }

  /** Ends every subscription of this instance and closes the connection. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.appends.flush();
    this.closed = true;
    for (const subscription of [...this.subscriptions]) await subscription.unsubscribe();
    this.db.close();
  }

  private readAllNow(fromPosition: number, maxCount: number, filter: EventFilter | undefined): RecordedEvent[] {
    if ((filter?.streamPrefixes?.length ?? 0) === 0 && (filter?.eventTypes?.length ?? 0) === 0) {
      return this.selectAll.all(fromPosition, maxCount).map(toRecordedEvent);
    }
    return this.filtered.read(fromPosition, maxCount, filter!).map(toRecordedEvent);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('SqliteEventStore is closed');
  }
}

/**
 * Opens the embedded event store of a data directory: `<dataDir>/events.sqlite`, creating the
 * directory if needed (docs/operations.md "Configuration": `DATA_DIR`, default `./data`).
 */
export function openSqliteEventStore(dataDir: string, options: Omit<SqliteEventStoreOptions, 'filename'> = {}): SqliteEventStore {
  makePrivateDirectory(dataDir);
  return new SqliteEventStore({ ...options, filename: path.join(dataDir, 'events.sqlite') });
}
