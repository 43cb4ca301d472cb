/**
 * SQLite adapter of the event store port (docs/DESIGN.md "The event store port", "Group commit"): one append-only table in WAL mode.
 * Methods run synchronously and return settled promises, except appends, which settle once their group commit has. Positions are
 * assigned by `AUTOINCREMENT` inside each `BEGIN IMMEDIATE`, and write transactions on a file are serialised across connections and
 * processes, so a snapshot holding position H holds every position below it: subscriptions rely on this, so never assign positions
 * outside the write transaction.
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

export interface SqliteEventStoreOptions {
  /** Or `:memory:` (unit tests). */
  filename: string;
  /** How often a live subscription polls for other processes' appends (this process's wake it at once), ms. */
  pollIntervalMs?: number;
  /** Ms a writer waits for another connection's lock. */
  busyTimeoutMs?: number;
  /** `full` fsyncs the WAL at each commit: an acknowledged append survives power loss (docs/DESIGN.md property 4); `normal`, a crash. */
  synchronous?: 'full' | 'normal';
  /** A projection thread's writer, which commits the checked units in its own group commits; this connection then only reads. */
  appendThrough?: (unit: QueuedWrite[]) => Promise<AppendOutcome[]>;
  /** Chain each stream's events (docs/DESIGN.md "Verifiable history"); false only for the bench's comparison (production refuses it). */
  hashChain?: boolean;
}

export const DEFAULT_READ_ALL_MAX_COUNT = 1000;
export const DEFAULT_POLL_INTERVAL_MS = 100;
/** Per query while a subscription catches up. */
const SUBSCRIPTION_BATCH_SIZE = 500;
const COLUMNS = 'position, id, stream_id, revision, type, data, metadata';

export type { AppendOutcome } from './stream-appends';

let memoryStoreCounter = 0;

/** Safe for several connections and processes on one file (WAL, `busy_timeout`, `BEGIN IMMEDIATE` appends). */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly key: string;
  /** Real path; null in memory. */
  readonly file: string | null;
  private readonly pollIntervalMs: number;
  private readonly appendThrough: SqliteEventStoreOptions['appendThrough'];
  private readonly subscriptions = new Set<SqliteSubscription>();
  private closed = false;

  private readonly streamAppends: StreamAppends;
  private readonly storedStreams: StoredStreams;
  /** Raw mode: no object per row. */
  private readonly selectStream: Database.Statement<[string, number, number], RawEventRow>;
  private readonly selectAll: Database.Statement<[number, number], EventRow>;
  private readonly selectHead: Database.Statement<[], { head: number | null }>;
  private readonly streamScan: StreamScan;
  private readonly filtered: FilteredReads;
  /** A unit is one append, or one all-or-nothing multi-stream append. */
  private readonly appends: GroupCommit<QueuedWrite[], AppendOutcome[]>;
  private readonly snapshotTransaction: Database.Transaction<
    (fromPosition: number, maxCount: number, filter: EventFilter | undefined) => { events: RecordedEvent[]; scannedTo: number }
  >;

  /** Opens (creating) the store and its schema. RangeError for a non-positive `pollIntervalMs`; SQLite's error when it cannot open. */
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
   * Port: {@link EventStore.appendToStream}, in the next group commit; resolves once committed. The same ids again at consecutive
   * revisions in order: the original result, nothing written, whatever the expectation (as EventStoreDB); some of them, or elsewhere or
   * reordered, or an id repeated in the batch: IdempotencyConflictError. WrongExpectedVersionError on a mismatch; an empty batch only
   * checks it. TypeError for an id not a UUID (stored lower-case), data not JSON or metadata not an object; RangeError for a bad revision.
   */
  async appendToStream(streamId: string, events: EventData[], options: AppendOptions = {}): Promise<AppendResult> {
    this.assertOpen();
    const [outcome] = await this.submit([checkedWrite({ streamId, events, options })]);
    return outcome.result;
  }

  /** Port: {@link EventStore.appendToStreams}: one unit of the next group commit in one savepoint; the first failure rolls all back. */
  async appendToStreams(writes: StreamWrite[]): Promise<AppendResult[]> {
    this.assertOpen();
    if (!Array.isArray(writes)) throw new TypeError('writes must be an array');
    const outcomes = await this.submit(writes.map(checkedWrite));
    return outcomes.map((o) => o.result);
  }

  /** What a projection thread's writer runs: each unit all-or-nothing, one turn's in one group commit; one failing leaves the rest. */
  appendWrites(unit: QueuedWrite[]): Promise<AppendOutcome[]> {
    this.assertOpen();
    return this.appends.submit(unit);
  }

  /** Another connection of this process (a projection thread's writer) committed appends: wakes this store's live subscriptions. */
  signalAppended(): void {
    appendSignals.emit(this.key);
  }

  /** Here, or through the writer. */
  private submit(unit: QueuedWrite[]): Promise<AppendOutcome[]> {
    return this.appendThrough ? this.appendThrough(unit) : this.appends.submit(unit);
  }

  /** Port: {@link EventStore.readStream}: one indexed range read, so a page costs its events whatever the stream's length. */
  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const { fromRevision, maxCount } = this.streamRange(options);
    return this.selectStream.all(streamId, fromRevision, maxCount).map(rawToRecordedEvent);
  }

  /** `maxCount` -1 for no limit, as SQLite reads a negative LIMIT. RangeError as `readStream` documents. */
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

  /** Port: {@link EventStore.readStoredStream}, with the checks of `readStream`. */
  async readStoredStream(streamId: string, options: ReadStreamOptions = {}): Promise<StoredEventText[]> {
    const { fromRevision, maxCount } = this.streamRange(options);
    return this.storedStreams.stream(streamId, fromRevision, maxCount);
  }

  /** Port: {@link EventStore.readAll}, the filter run in SQL. */
  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const fromPosition = options.fromPosition ?? 0;
    const maxCount = options.maxCount ?? DEFAULT_READ_ALL_MAX_COUNT;
    assertNonNegativeInteger('fromPosition', fromPosition);
    if (!Number.isInteger(maxCount) || maxCount < 1) throw new RangeError(`maxCount must be an integer ≥ 1, got ${maxCount}`);
    return this.readAllNow(fromPosition, maxCount, options.filter);
  }

  /** Port: {@link EventStore.readStreamsByPrefix} (`StreamScan`). */
  async readStreamsByPrefix(options: ReadStreamsOptions): Promise<RecordedEvent[]> {
    this.assertOpen();
    return this.streamScan.streams(options);
  }

  /** Port: {@link EventStore.readStoredStreams} (`StoredStreams`). */
  async readStoredStreams(options: ReadStoredStreamsOptions): Promise<StoredEventText[]> {
    this.assertOpen();
    return this.storedStreams.streams(options);
  }

  /** Port: {@link EventStore.subscribeToAll}: this process's appends on the file wake it at once; other processes' are polled for. */
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

  /** Port: {@link EventStore.headPosition}. */
  async headPosition(): Promise<LogPosition> {
    return this.headPositionNow();
  }

  /** {@link headPosition}, synchronously. */
  headPositionNow(): LogPosition {
    this.assertOpen();
    return logPosition(this.selectHead.get()?.head ?? 0);
  }

  /** Ends this instance's subscriptions and closes the connection; safe twice. */
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

/** `<dataDir>/events.sqlite`, creating the directory (docs/operations.md "Configuration"). */
export function openSqliteEventStore(dataDir: string, options: Omit<SqliteEventStoreOptions, 'filename'> = {}): SqliteEventStore {
  makePrivateDirectory(dataDir);
  return new SqliteEventStore({ ...options, filename: path.join(dataDir, 'events.sqlite') });
}
