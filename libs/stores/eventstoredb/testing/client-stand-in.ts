/**
 * An in-process stand-in of `@eventstore/db-client` 6.2.1's `EventStoreDBClient` and its server, for the calls the adapter makes
 * (docs/DESIGN.md "Testing the EventStoreDB adapter without a server"): no run on EventStoreDB; `npm run test:production` is.
 * Modelled on the client's source at v6.2.1 (github.com/EventStore/EventStore-Client-NodeJS, `packages/db-client/src/`):
 * - positions (`utils/convertGrpcEvent.ts`): `{ commit, prepare }` byte offsets, equal for a gRPC append, advancing by each record's
 *   size, so sparse;
 * - system records (server `SystemStreams`, `SystemEventTypes`, `EpochManager`): the log starts with `systemRecordsAtStart` records in
 *   `$`-prefixed streams (an epoch's `$epoch-information` first, then `$ProjectionsInitialized`, then `$statsCollected` ones), and
 *   each leader election appends one `$epoch-information` record ({@link electLeader}), read and sent to subscriptions as any record;
 * - reads (`streams/readAll.ts`, `readStream.ts`, `utils/ReadStream.ts`): a readable at once, answered on a later turn; `readAll`
 *   unfiltered, forwards inclusive, backwards exclusive; `$all` from where no record starts fails while iterated (as `UnknownError`:
 *   the class a real refusal reaches the client as is not modelled); a missing stream raises `StreamNotFoundError` while iterated;
 *   `destroy()` leaves the call open, `cancel()` cancels it;
 * - appends (`streams/appendToStream/index.ts`, `Client/ServerFeatures.ts`): one server features round trip before the first, which
 *   every append waits for and reads never do, kept by the client (`Client/index.ts`, `capabilities`) for its life when it fails
 *   with other than UNAVAILABLE or goes unanswered (it has no deadline), so every later append fails or waits too
 *   ({@link failServerFeatures}); the expected revision checked atomically (`WrongExpectedVersionError`); data and
 *   metadata sent as JSON texts and parsed on read; the ids just after the expected revision again: a retry, answered unwritten;
 * - subscriptions (`streams/subscribeToAll.ts`, `utils/Subscription.ts`; server `Enumerator.AllSubscriptionFiltered.cs`,
 *   `AllReader.cs` ReadAllEventsForwardInternal): catch-up then live, every record after the position in the server's order of
 *   `{commit, prepare}` (so from a record's own position the next one, from `{commit: X, prepare: 0}` the record at X); the filter
 *   applied server-side; `unsubscribe()` cancels the call. A filtered one reads its catch-up in pages of `maxSearchWindow` (32)
 *   records and hands `checkpointReached` a checkpoint, in order with the events, once `checkpointInterval` × 32 records were
 *   considered and when it goes live: its last event's position, or else the start of the page just read, `{commit: X, prepare: 0}`
 *   (the reader's next position after a record is its end with prepare 0); live, every `checkpointInterval` × 32 records committed,
 *   the position of the record that made the count, matched or not; {@link dropSubscriptions} fails them as a lost connection does;
 * - the append size limit (server `Services/Transport/Grpc/Streams.BatchAppend.cs`, `ClientWriteRequest.AddEvents`): a batch whose
 *   events' data and metadata bytes plus twice each type's length pass `maxAppendSize` (`MaxAppendSize`, 1 MiB by default) is
 *   refused whole before its expected revision is checked, as the client's `MaxAppendSizeExceededError`
 *   (`streams/appendToStream/unpackError.ts`);
 * - tombstones (`streams/tombstoneStream.ts`; server `Enumerator.ReadStreamForwards.cs`, `AllReader.cs`): {@link tombstoneStream}
 *   writes a `$streamDeleted` record to the stream at revision 2^63 − 1 (the server's `EventNumber.DeletedStream`), binary and empty,
 *   read from `$all` and sent to subscriptions as any record; then reading the stream either way fails while iterated, and every
 *   append to it is refused whatever its expectation, both with the client's `StreamDeletedError` (`utils/CommandError.ts`,
 *   `streams/appendToStream/unpackError.ts`);
 * - the shared batch-append call (`streams/appendToStream/batchAppend.ts`): {@link failBatchAppend} fails it, rejecting every append
 *   in flight (held by {@link holdAppends}) with one error, some written and some not;
 * Not modelled: links, projections, soft deletes, stream metadata (`$maxAge`, `$maxCount`, `$tb`), scavenging, legacy transactions
 * (commit ≠ prepare), deadlines, auth, clusters and a follower's reads, connection failures (`failNextCalls` and
 * {@link dropSubscriptions} raise `UnavailableError` instead), the per-event size limit.
 */
import {
  MaxAppendSizeExceededError,
  StreamDeletedError,
  StreamNotFoundError,
  UnavailableError,
  UnknownError,
  WrongExpectedVersionError,
  type AppendExpectedRevision,
  type EventStoreDBClient,
  type Filter,
  type Position,
  type ReadPosition,
} from '@eventstore/db-client';
import { randomUUID } from 'node:crypto';
import { OpenCalls, StandInRead, StandInSubscription } from './stand-in-calls';

/** As stored: texts, as the server keeps bytes. */
interface StoredRecord {
  streamId: string;
  id: string;
  type: string;
  revision: bigint;
  commit: bigint;
  data: string;
  metadata: string | Uint8Array;
  created: Date;
  /** A tombstone: no JSON, empty data. */
  tombstone?: true;
}

/** A `jsonEvent(…)`. */
interface ClientEvent {
  id: string;
  type: string;
  contentType: string;
  data: unknown;
  metadata?: unknown;
}

/** A live subscription; `checkpoints` only for a filtered one. */
interface LiveSubscription {
  call: StandInSubscription;
  accepts: (r: StoredRecord) => boolean;
  checkpoints: { interval: number; counted: number; reached: Filter['checkpointReached'] } | null;
}

interface StandInServer {
  log: StoredRecord[];
  byCommit: Map<bigint, number>;
  streams: Map<string, StoredRecord[]>;
  deleted: Set<string>;
  subscriptions: Set<LiveSubscription>;
  end: bigint;
  held: Promise<void>;
  /** Appends wait for it before they are written: a server that has the request and has not answered. */
  appendsHeld: Promise<void>;
  failing: number;
  handedOut: number;
}

function newServer(): StandInServer {
  const answered = Promise.resolve();
  return {
    log: [],
    byCommit: new Map(),
    streams: new Map(),
    deleted: new Set(),
    subscriptions: new Set(),
    end: 0n,
    held: answered,
    appendsHeld: answered,
    failing: 0,
    handedOut: 0,
  };
}

export interface StandInOptions {
  /** The one-time server features round trip, ms. */
  serverFeaturesDelayMs?: number;
  /** The server's `MaxAppendSize`, bytes. */
  maxAppendSize?: number;
  /** System records a new server's log starts with (default 1: the first epoch's). */
  systemRecordsAtStart?: number;
}

/** An append sent and not yet answered: `commit` writes it as the server would; `fail` rejects the caller's promise. */
interface AppendInFlight {
  commit: () => { success: true; nextExpectedRevision: bigint; position: Position };
  fail: (error: Error) => void;
}

/** Of every stand-in client of the process, as the client's pending batch appends (`batchAppend.ts`, `promiseBank`). */
const APPENDS_IN_FLIGHT = new Set<AppendInFlight>();

/** A tombstone's revision (server `EventNumber.DeletedStream`, `long.MaxValue`). */
const TOMBSTONE = 2n ** 63n - 1n;

/** The stream and type of the record each epoch writes (server `SystemStreams.EpochInformationStream`, `SystemEventTypes`). */
const EPOCH_INFORMATION = '$epoch-information';

/** The server's default `MaxAppendSize`, bytes. */
export const DEFAULT_MAX_APPEND_SIZE = 1_048_576;

/** The stand-in's guess: it only makes gaps. */
const RECORD_OVERHEAD = 97n;

/** Server `Enumerator.ReadBatchSize`: a filtered subscription's default search window, records per catch-up page. */
const READ_BATCH_SIZE = 32;

/** {@link asClient} hands it to the adapter; test helpers {@link holdReads}, {@link failNextCalls}, {@link openCalls}. */
export class EventStoreDbClientStandIn {
  private readonly server: StandInServer;
  private readonly calls = new OpenCalls();
  private serverFeatures: Promise<void> | null = null;
  private serverFeaturesFailure: Error | 'unanswered' | null = null;
  private readonly serverFeaturesDelayMs: number;
  private readonly maxAppendSize: number;

  /** A new server (its log holds one system record), or `server`'s. */
  constructor(options: StandInOptions = {}, server?: StandInServer) {
    this.serverFeaturesDelayMs = options.serverFeaturesDelayMs ?? 5;
    this.maxAppendSize = options.maxAppendSize ?? DEFAULT_MAX_APPEND_SIZE;
    this.server = server ?? newServer();
    if (server === undefined) {
      const count = options.systemRecordsAtStart ?? 1;
      for (let i = 0; i < count; i++) {
        if (i === 0) this.electLeader();
        else if (i === 1) this.writeSystemRecord('$projections-$all', '$ProjectionsInitialized');
        else this.writeSystemRecord('$stats-127.0.0.1:2113', '$statsCollected');
      }
    }
  }

  /** As the client's: `expectedRevision` not checked (`any`); the tombstone's position. */
  async tombstoneStream(streamName: string): Promise<{ position: Position }> {
    await new Promise((resolve) => setImmediate(resolve));
    this.failIfAsked();
    if (this.server.deleted.has(streamName)) throw StreamDeletedError.fromStreamName(streamName);
    const record = this.write(
      { id: randomUUID(), type: '$streamDeleted', contentType: 'application/json', data: {} },
      streamName,
      TOMBSTONE,
    );
    record.tombstone = true;
    record.data = '';
    this.server.deleted.add(streamName);
    this.publish(record);
    return { position: this.positionOf(record) };
  }

  /** A new epoch: one `$epoch-information` record at the end of the log, sent to live subscriptions. */
  electLeader(): Position {
    return this.positionOf(this.writeSystemRecord(EPOCH_INFORMATION, EPOCH_INFORMATION));
  }

  private writeSystemRecord(streamId: string, type: string): StoredRecord {
    const stream = this.server.streams.get(streamId) ?? [];
    const record = this.write({ id: randomUUID(), type, contentType: 'application/json', data: {} }, streamId, BigInt(stream.length));
    this.publish(record);
    return record;
  }

  /** Its own calls and server features round trip. */
  anotherClient(): EventStoreDbClientStandIn {
    return new EventStoreDbClientStandIn(
      { serverFeaturesDelayMs: this.serverFeaturesDelayMs, maxAppendSize: this.maxAppendSize },
      this.server,
    );
  }

  private get log(): StoredRecord[] {
    return this.server.log;
  }

  asClient(): EventStoreDBClient {
    return this as unknown as EventStoreDBClient;
  }

  /** Reads unanswered or uncancelled, live subscriptions. */
  get openCalls(): number {
    return this.calls.count;
  }

  /** Records handed to the client so far, by reads and subscriptions, of this server, system records included. */
  get recordsHandedOut(): number {
    return this.server.handedOut;
  }

  /** System records included. */
  recordPositions(): Position[] {
    return this.log.map((r) => ({ commit: r.commit, prepare: r.commit }));
  }

  /** Reads made until the returned function is called go unanswered till then (a hung server). */
  holdReads(): () => void {
    return this.hold('held');
  }

  /**
   * Appends made until the returned function is called are written and answered only then (a server slow to commit: client 6.2.1's
   * batch append call has no deadline, so the client waits as long).
   */
  holdAppends(): () => void {
    return this.hold('appendsHeld');
  }

  /** Sets the server's `gate` to a promise the returned function resolves (and resets). */
  private hold(gate: 'held' | 'appendsHeld'): () => void {
    let release!: () => void;
    this.server[gate] = new Promise((resolve) => (release = resolve));
    return () => {
      this.server[gate] = Promise.resolve();
      release();
    };
  }

  /**
   * This client's server features call, once made, fails with `error` (the gRPC error it meets, such as INTERNAL) or is never
   * answered; made before, it is not made again.
   */
  failServerFeatures(error: Error | 'unanswered'): void {
    this.serverFeaturesFailure = error;
  }

  /** As client 6.2.1's protected getter: the server features call, made once and kept, failed or not. */
  get capabilities(): Promise<void> {
    this.serverFeatures ??= new Promise((resolve, reject) => {
      const failure = this.serverFeaturesFailure;
      if (failure === 'unanswered') return;
      setTimeout(() => (failure === null ? resolve() : reject(failure)), this.serverFeaturesDelayMs);
    });
    return this.serverFeatures;
  }

  /** With the client's `UnavailableError` (a dropped connection). */
  failNextCalls(count: number): void {
    this.server.failing = count;
  }

  /** Every live subscription of this server fails with `error`, as a lost connection fails them (`UnavailableError`). */
  dropSubscriptions(error: Error = new UnavailableError(undefined, 'the stand-in dropped the connection')): void {
    for (const { call } of [...this.server.subscriptions]) call.failCall(error);
  }

  async appendToStream(
    streamName: string,
    events: ClientEvent | ClientEvent[],
    options: { expectedRevision?: AppendExpectedRevision } = {},
  ): Promise<{ success: true; nextExpectedRevision: bigint; position: Position }> {
    await this.capabilities;
    await new Promise((resolve) => setImmediate(resolve));
    this.failIfAsked();
    const batch = Array.isArray(events) ? events : [events];
    const expected = options.expectedRevision ?? 'any';
    const entry: AppendInFlight = { commit: () => this.commitAppend(streamName, batch, expected), fail: () => undefined };
    const failed = new Promise<never>((_, reject) => (entry.fail = reject));
    APPENDS_IN_FLIGHT.add(entry);
    try {
      await Promise.race([this.server.appendsHeld, failed]);
    } finally {
      APPENDS_IN_FLIGHT.delete(entry);
    }
    return entry.commit();
  }

  /** Appends sent on the batch-append calls of this process and not yet answered ({@link failBatchAppend}). */
  get appendsInFlight(): number {
    return APPENDS_IN_FLIGHT.size;
  }

  /**
   * The batch-append call fails with `error` (the client's error for it: `UnavailableError` for UNAVAILABLE), as client 6.2.1's
   * `streams/appendToStream/batchAppend.ts` answers an 'error' of its call: every append in flight is rejected with it, those of every
   * client of the process (its pending appends are one module-level map). The server may have written some before the call broke:
   * here the first `written` of them, in the order they were sent.
   */
  failBatchAppend(error: Error, written = 0): void {
    const inFlight = [...APPENDS_IN_FLIGHT];
    APPENDS_IN_FLIGHT.clear();
    inFlight.forEach((append, i) => {
      if (i < written) {
        try {
          append.commit();
        } catch {
          // Refused by the server: not written, and the client learns only of the call's failure.
        }
      }
      append.fail(error);
    });
  }

  /** The server's side of one append: its size, the stream's tombstone, a retry, the expected revision; then written and published. */
  private commitAppend(
    streamName: string,
    batch: ClientEvent[],
    expected: AppendExpectedRevision,
  ): { success: true; nextExpectedRevision: bigint; position: Position } {
    if (sizeOnDisk(batch) > this.maxAppendSize) throw MaxAppendSizeExceededError.fromMaxAppendSize(this.maxAppendSize);
    if (this.server.deleted.has(streamName)) throw StreamDeletedError.fromStreamName(streamName);
    const stream = this.server.streams.get(streamName) ?? [];
    const current = stream.length === 0 ? null : stream[stream.length - 1].revision;
    const retried = this.retriedBatch(stream, batch, expected);
    if (retried !== null) return { success: true, nextExpectedRevision: retried.revision, position: this.positionOf(retried) };
    const matches =
      expected === 'any' ||
      (expected === 'no_stream' && current === null) ||
      (expected === 'stream_exists' && current !== null) ||
      (typeof expected === 'bigint' && expected === current);
    if (!matches) {
      throw new WrongExpectedVersionError(undefined, { streamName, expected, current: current ?? 'no_stream' });
    }
    let revision = current === null ? 0n : current + 1n;
    let last: StoredRecord | null = null;
    for (const event of batch) last = this.write(event, streamName, revision++);
    for (const record of this.log.slice(this.log.length - batch.length)) this.publish(record);
    if (last === null) throw new RangeError('the stand-in takes no empty batch (the adapter answers those itself)');
    return { success: true, nextExpectedRevision: last.revision, position: this.positionOf(last) };
  }

  readStream(
    streamName: string,
    options: { fromRevision?: 'start' | 'end' | bigint; maxCount?: number | bigint; direction?: 'forwards' | 'backwards' } = {},
  ): StandInRead {
    return new StandInRead(this.calls, this.server.held, () => {
      this.failIfAsked();
      if (this.server.deleted.has(streamName)) throw StreamDeletedError.fromStreamName(streamName);
      const stream = this.server.streams.get(streamName);
      if (stream === undefined) throw new StreamNotFoundError(undefined, streamName);
      const max = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
      const from = options.fromRevision ?? 'start';
      let records: StoredRecord[];
      if (options.direction === 'backwards') {
        const upTo = from === 'end' || from === 'start' ? Infinity : Number(from);
        records = stream.filter((r) => Number(r.revision) <= upTo).reverse();
      } else {
        const start = from === 'start' ? 0 : from === 'end' ? Infinity : Number(from);
        records = stream.filter((r) => Number(r.revision) >= start);
      }
      return this.handOut(records.slice(0, max));
    });
  }

  readAll(options: { fromPosition?: ReadPosition; maxCount?: number | bigint; direction?: 'forwards' | 'backwards' } = {}): StandInRead {
    return new StandInRead(this.calls, this.server.held, () => {
      this.failIfAsked();
      const max = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
      const from = options.fromPosition ?? 'start';
      const backwards = options.direction === 'backwards';
      let index: number;
      if (from === 'start') index = 0;
      else if (from === 'end') index = this.log.length;
      else index = this.indexAt(from);
      const records = backwards ? this.log.slice(0, index).reverse() : this.log.slice(index);
      return this.handOut(records.slice(0, max));
    });
  }

  subscribeToAll(options: { fromPosition?: ReadPosition; filter?: Filter } = {}): StandInSubscription {
    const filter = options.filter;
    const entry: LiveSubscription = {
      call: null as unknown as StandInSubscription,
      accepts: acceptsOf(filter),
      checkpoints: null,
    };
    entry.call = new StandInSubscription(
      this.calls,
      (call) => {
        const from = options.fromPosition ?? 'start';
        let index = from === 'start' ? 0 : from === 'end' ? this.log.length : this.indexAt(from);
        // After a record's own position the server starts at the next record; from `{X, 0}` at the record at X.
        if (typeof from !== 'string' && from.prepare === from.commit && index < this.log.length) index++;
        if (filter === undefined) {
          for (const record of this.log.slice(index)) this.sendEvent(call, record);
        } else {
          const window = filter.maxSearchWindow ?? READ_BATCH_SIZE;
          const interval = filter.checkpointInterval * window;
          // From the end the server goes live at once, with no catch-up and so no checkpoint.
          if (from !== 'end') this.catchUpFiltered(entry, from, index, window, interval, filter);
          entry.checkpoints = { interval, counted: 0, reached: filter.checkpointReached };
        }
        this.server.subscriptions.add(entry);
      },
      () => this.server.subscriptions.delete(entry),
    );
    return entry.call;
  }

  /**
   * Server `Enumerator.AllSubscriptionFiltered.CatchUp` over `AllReader.ReadAllEventsForwardInternal`: pages of `window` records from
   * `index`, each page's start `{commit, 0}` after the first (the reader's `NextPos`); the checkpoint moves to the last event sent, or to
   * the page's start when the page sent none; sent every `interval` records considered and at the end.
   */
  private catchUpFiltered(
    entry: LiveSubscription,
    from: Position | 'start',
    index: number,
    window: number,
    interval: number,
    filter: Filter,
  ): void {
    let checkpoint: Position | null = from === 'start' ? null : from;
    let counted = 0;
    for (let i = index; ;) {
      const page = this.log.slice(i, i + window);
      const current: Position = i === index && from !== 'start' ? from : { commit: this.startOf(i), prepare: 0n };
      const next: Position = { commit: this.startOf(i + page.length), prepare: 0n };
      for (const record of page) {
        if (!entry.accepts(record)) continue;
        this.sendEvent(entry.call, record);
        checkpoint = this.positionOf(record);
      }
      if ((checkpoint === null || comparePositions(checkpoint, current) < 0) && comparePositions(current, next) < 0) checkpoint = current;
      counted += page.length;
      if (page.length < window) {
        if (checkpoint !== null) this.sendCheckpoint(entry.call, filter.checkpointReached, checkpoint);
        return;
      }
      if (counted >= interval) {
        counted %= interval;
        if (checkpoint !== null) this.sendCheckpoint(entry.call, filter.checkpointReached, checkpoint);
      }
      i += page.length;
    }
  }

  /** Where the record at `index` starts: the end of the one before, or the log's end. */
  private startOf(index: number): bigint {
    return index < this.log.length ? this.log[index].commit : this.server.end;
  }

  private sendEvent(call: StandInSubscription, record: StoredRecord): void {
    if (!call.isOpen) return;
    this.server.handedOut++;
    call.send({ event: this.recorded(record) });
  }

  /** As the client's `Subscription._transform`: `checkpointReached(subscription, position)` in order with the events. */
  private sendCheckpoint(call: StandInSubscription, reached: Filter['checkpointReached'], position: Position): void {
    if (call.isOpen && !call.destroyed)
      void reached?.(call as unknown as Parameters<NonNullable<Filter['checkpointReached']>>[0], position);
  }

  async dispose(): Promise<void> {
    this.calls.cancelAll();
  }

  /** Closed by the adapter after `dispose`; nothing to close here. */
  async getChannel(): Promise<{ close(): void }> {
    return { close: () => undefined };
  }

  private write(event: ClientEvent, streamId: string, revision: bigint): StoredRecord {
    if (event.contentType !== 'application/json') throw new TypeError('the stand-in stores JSON events only');
    const data = JSON.stringify(event.data);
    const metadata = event.metadata instanceof Uint8Array ? Uint8Array.from(event.metadata) : JSON.stringify(event.metadata ?? {});
    const record: StoredRecord = {
      streamId,
      id: event.id,
      type: event.type,
      revision,
      commit: this.server.end,
      data,
      metadata,
      created: new Date(),
    };
    this.server.byCommit.set(record.commit, this.log.length);
    this.log.push(record);
    const stream = this.server.streams.get(streamId) ?? [];
    stream.push(record);
    this.server.streams.set(streamId, stream);
    const size = BigInt(Buffer.byteLength(streamId) + Buffer.byteLength(event.type) + Buffer.byteLength(data) + metadata.length);
    this.server.end += RECORD_OVERHEAD + size;
    return record;
  }

  /** The event the retried `batch` ended at, else null. */
  private retriedBatch(stream: StoredRecord[], batch: ClientEvent[], expected: AppendExpectedRevision): StoredRecord | null {
    let first: number;
    if (expected === 'no_stream') first = 0;
    else if (typeof expected === 'bigint') first = Number(expected) + 1;
    else first = stream.length - batch.length;
    if (first < 0 || first + batch.length > stream.length) return null;
    const same = batch.every((event, i) => stream[first + i].id === event.id);
    return same ? stream[first + batch.length - 1] : null;
  }

  /** Server `SubscriptionsService.ProcessEventCommited`: each record committed counts towards a filtered subscription's checkpoint. */
  private publish(record: StoredRecord): void {
    for (const { call, accepts, checkpoints } of this.server.subscriptions) {
      if (accepts(record)) this.sendEvent(call, record);
      if (checkpoints === null || ++checkpoints.counted < checkpoints.interval) continue;
      checkpoints.counted = 0;
      this.sendCheckpoint(call, checkpoints.reached, this.positionOf(record));
    }
  }

  private handOut(records: StoredRecord[]): { event: Record<string, unknown>; commitPosition: bigint }[] {
    this.server.handedOut += records.length;
    return records.map((r) => ({ event: this.recorded(r), commitPosition: r.commit }));
  }

  /**
   * The record at `position.commit`, or the end; a prepare position of 0 (a checkpoint's) or equal to the commit position, as the
   * server's reader takes from gRPC (`{commit, prepare}` of a legacy transaction are not modelled). `UnknownError` where no record
   * starts.
   */
  private indexAt(position: Position): number {
    const index = position.commit === this.server.end ? this.log.length : this.server.byCommit.get(position.commit);
    if (index === undefined || (position.prepare !== position.commit && position.prepare !== 0n)) {
      throw new UnknownError(undefined, `no record starts at commit ${position.commit}, prepare ${position.prepare}`);
    }
    return index;
  }

  private positionOf(record: StoredRecord): Position {
    return { commit: record.commit, prepare: record.commit };
  }

  /** As the client decodes it (`convertGrpcRecord`). */
  private recorded(record: StoredRecord): Record<string, unknown> {
    const metadata = typeof record.metadata === 'string' ? record.metadata : Buffer.from(record.metadata).toString('utf8');
    if (record.tombstone) {
      const { streamId, id, revision, type, created } = record;
      return {
        streamId,
        id,
        revision,
        type,
        data: new Uint8Array(),
        metadata: new Uint8Array(),
        isJson: false,
        created,
        position: this.positionOf(record),
      };
    }
    return {
      streamId: record.streamId,
      id: record.id,
      revision: record.revision,
      type: record.type,
      data: JSON.parse(record.data) as unknown,
      metadata: metadata.length === 0 ? undefined : (JSON.parse(metadata) as unknown),
      isJson: true,
      created: record.created,
      position: this.positionOf(record),
    };
  }

  private failIfAsked(): void {
    if (this.server.failing === 0) return;
    this.server.failing--;
    throw new UnavailableError(undefined, 'the stand-in was told to fail this call');
  }
}

/** The server's `Event.SizeOnDisk` summed: data and metadata bytes as the client sends them, twice each type's length. */
function sizeOnDisk(batch: ClientEvent[]): number {
  const bytes = (value: unknown): number =>
    value === undefined ? 0 : value instanceof Uint8Array ? value.length : Buffer.byteLength(JSON.stringify(value));
  return batch.reduce((sum, e) => sum + bytes(e.data) + bytes(e.metadata) + e.type.length * 2, 0);
}

/** The server's `TFPos` order: by commit position, then prepare position. */
function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  return a.prepare === b.prepare ? 0 : a.prepare < b.prepare ? -1 : 1;
}

function acceptsOf(filter: Filter | undefined): (record: StoredRecord) => boolean {
  if (filter === undefined) return () => true;
  const field = (record: StoredRecord): string => (filter.filterOn === 'streamName' ? record.streamId : record.type);
  if ('regex' in filter) {
    const regex = new RegExp(filter.regex);
    return (record) => regex.test(field(record));
  }
  return (record) => filter.prefixes.some((prefix) => field(record).startsWith(prefix));
}
