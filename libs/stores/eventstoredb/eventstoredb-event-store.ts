/**
 * EventStoreDB adapter of the event store port (docs/DESIGN.md "The event store port";
 * docs/operations.md "Configuration": `EVENTSTORE_URL`, an `esdb://` connection string, selects it),
 * on `@eventstore/db-client` 6.2 (gRPC; EventStoreDB / KurrentDB 22.6 or later).
 *
 * Streams are used as given (`trainee-<id>`, …). Decisions, each documented where it lives:
 * - positions: the port's integer is the event's commit position (positions.ts);
 * - filters: what the server filters and what is re-checked here (filters.ts);
 * - subscriptions: resubscribe with backoff from the last yielded event, deduplicated
 *   (eventstoredb-subscription.ts);
 * - appends: at most 32 in flight per store, FIFO (concurrency-limiter.ts);
 * - idempotent retries: below and in idempotency.ts;
 * - the hash chain: each append names the exact revision its events are chained to (chain-head.ts).
 *
 * ## Appends and the port's idempotency rule
 *
 * Event ids are sent as the EventStoreDB event ids, so the server itself recognises a batch retried
 * with the same expected revision. The port promises more ("returns the original result and writes
 * nothing, whatever the expectation"; partial or reordered re-use raises IdempotencyConflictError),
 * so the adapter also compares the batch's ids with the stream's events (idempotency.ts):
 * - before appending with `any` / `stream_exists`, which the server deduplicates only on a best-effort
 *   basis (client doc of `ExpectedRevision`);
 * - after the server answers WrongExpectedVersion, to tell a retry from a real conflict.
 * After a successful append the adapter reads the batch back from the stream (on the leader): that
 * gives the exact position of the batch's last event, which the append response does not pin down
 * (it carries one position for the whole batch, and what it carries for a write the server treated
 * as an idempotent retry is not documented), and confirms the stored events are the batch. Cost: one
 * extra indexed read per append.
 *
 * Limits (EventStoreDB cannot do these; the SQLite adapter does):
 * - Event ids are unique per stream only: re-using an id in ANOTHER stream is not detected (the
 *   shared contract's test "raises IdempotencyConflictError when the ids were appended to another
 *   stream" is expected to fail against EventStoreDB).
 * - With an exact expected revision that matches, the server appends a batch even if one of its ids
 *   is already earlier in the stream (no IdempotencyConflictError then).
 * - The `any`/`stream_exists` pre-check and the append are two requests: two concurrent `any`
 *   appends of the same new ids can both be written (the server's own best effort still applies).
 */
import { BACKWARDS, END, EventStoreDBClient, FORWARDS, NO_STREAM } from '@eventstore/db-client';
import type {
  AllStreamResolvedEvent,
  AppendResult as ClientAppendResult,
  Position,
  ReadPosition,
  ReadStreamOptions,
  ResolvedEvent,
} from '@eventstore/db-client';
import {
  closeChannel,
  collectWithin,
  DEFAULT_MAX_CONCURRENT_APPENDS,
  DEFAULT_MAX_CONCURRENT_READS,
  DEFAULT_MAX_QUEUED_CALLS,
  DEFAULT_READ_DEADLINE_MS,
} from './client-calls';
import {
  expectationOf,
  KeyedLock,
  AppendOptions,
  AppendResult,
  EventData,
  EventStore,
  ExpectedRevision,
  LOG_START,
  LogPosition,
  ReadAllOptions,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
  WrongExpectedVersionError,
} from '@app/event-sourcing';
import { BackoffOptions } from './backoff';
import { ConcurrencyLimiter } from './concurrency-limiter';
import { isClientWrongExpectedVersion, isStreamNotFound, toPortWrongExpectedVersion } from './errors';
import { assertWritableStreamId, fromClientEvent, normaliseBatch, toChainedClientEvents } from './event-mapping';
import { EventStoreDbSubscription, type SubscriptionLogger, type SubscriptionSettings } from './eventstoredb-subscription';
import { isSystemEvent, matchesEventFilter, normaliseFilter } from './filters';
import { CHAIN_ATTEMPTS, chainHeadAt, headHashOf, type ChainHead } from './chain-head';
import { readBack, retryResult } from './idempotency';
import { BackwardsRead, newestPosition } from './newest-event';
import {
  assertPortPosition,
  expectedRevisionMatches,
  fromClientCurrentRevision,
  samePosition,
  toClientExpectedRevision,
  toReadPosition,
} from './positions';

/** Default `maxCount` of `readAll` (port: {@link ReadAllOptions.maxCount}). */
export const DEFAULT_EVENTSTOREDB_READ_ALL_MAX_COUNT = 1000;
/** Default number of `$all` records one `readAll` request fetches (before client-side filtering). */
export const DEFAULT_READ_ALL_PAGE_SIZE = 512;
/** Records per backwards request when `headPosition` looks for the newest non-system event. */
const HEAD_PAGE_SIZE = 32;
/** Newest records of `$all` a subscription's stall check looks at for an event its filter matches. */
const STALL_CHECK_RECORDS = 256;

/** Options of {@link EventStoreDbEventStore}. */
export interface EventStoreDbEventStoreOptions {
  /** Appends in flight at once; further appends wait FIFO. Integer ≥ 1, default 32. */
  maxConcurrentAppends?: number;
  /** Resubscription backoff of subscriptions, in ms (default 100 doubling to 5000, jittered). */
  subscriptionBackoff?: BackoffOptions;
  /** Where subscriptions log retries and stalls, and their stall threshold in ms (see eventstoredb-subscription.ts). */
  logger?: SubscriptionLogger;
  stallAfterMs?: number;
  /** `$all` records per `readAll` request, integer ≥ 2, default 512. */
  readAllPageSize?: number;
  /** Reads in flight (default 32), calls waiting per limiter before more fail (1000), a read's deadline in ms (10 000). */
  maxConcurrentReads?: number;
  maxQueuedCalls?: number;
  readDeadlineMs?: number;
}

/**
 * {@link EventStore} on an EventStoreDB (or KurrentDB) server through one `EventStoreDBClient`.
 * Source: docs/DESIGN.md "The event store port"; how this adapter maps it onto the server: this module's doc.
 * Every method rejects with an Error once {@link close} has been called.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly appendLimiter: ConcurrencyLimiter;
  /** Appends to one stream, one at a time in call order (see {@link appendToStream}). */
  private readonly streamOrder = new KeyedLock();
  private readonly readLimiter: ConcurrencyLimiter;
  private readonly readDeadlineMs: number;
  private readonly subscriptions = new Set<EventStoreDbSubscription>();
  private readonly subscriptionSettings: SubscriptionSettings;
  private readonly readAllPageSize: number;
  private closed = false;

  /**
   * Wraps `client` (owned from now on: {@link close} disposes it). Throws a RangeError for an
   * invalid `maxConcurrentAppends` or `readAllPageSize`.
   */
  constructor(
    private readonly client: EventStoreDBClient,
    options: EventStoreDbEventStoreOptions = {},
  ) {
    const queued = options.maxQueuedCalls ?? DEFAULT_MAX_QUEUED_CALLS;
    this.appendLimiter = new ConcurrencyLimiter(options.maxConcurrentAppends ?? DEFAULT_MAX_CONCURRENT_APPENDS, queued);
    this.readLimiter = new ConcurrencyLimiter(options.maxConcurrentReads ?? DEFAULT_MAX_CONCURRENT_READS, queued);
    this.readDeadlineMs = options.readDeadlineMs ?? DEFAULT_READ_DEADLINE_MS;
    this.subscriptionSettings = { backoff: options.subscriptionBackoff, logger: options.logger, stallAfterMs: options.stallAfterMs };
    const pageSize = options.readAllPageSize ?? DEFAULT_READ_ALL_PAGE_SIZE;
    if (!Number.isInteger(pageSize) || pageSize < 2) {
      throw new RangeError(`readAllPageSize must be an integer ≥ 2, got ${pageSize}`);
    }
    this.readAllPageSize = pageSize;
  }

  /** Appends currently running and waiting in the limiter (for metrics and health answers). */
  get appendLoad(): { active: number; queued: number } {
    return { active: this.appendLimiter.active, queued: this.appendLimiter.queued };
  }

  /**
   * Appends `events` atomically to `streamId` (port: {@link EventStore.appendToStream});
   * `expectedRevision` defaults to `'any'` and maps to the client's NO_STREAM / STREAM_EXISTS / ANY
   * / BigInt(n). Returns the stream's last revision and the `$all` position of the batch's last event.
   *
   * Rejects with {@link WrongExpectedVersionError} (actual = current revision or `'no_stream'`) on a mismatch; with the
   * original result for a retried batch; with {@link IdempotencyConflictError} for partial/reordered re-use of ids in this
   * stream (limits in the module doc); with `StreamChainBrokenError` when what it read of the stream to chain to does not
   * make its chain (`chain-head.ts`: the head, or the whole stream where it reads it; nothing read for a caller's link);
   * with a TypeError for invalid events (ids must be UUIDs, `$`-prefixed stream ids and types are refused); with a
   * RangeError for an invalid expected revision; and with the client's errors (unavailable, access denied, …) otherwise.
   * An empty batch checks the expected revision and returns the stream's state (-1 and 0 when it does not exist) without writing.
   * At most `maxConcurrentAppends` appends run at once; the rest queue in order.
   * Appends to one stream run one after another in call order, as on SQLite (docs/DESIGN.md "Group
   * commit"): else a head read for a numeric expectation could overtake an append called before it,
   * which the client holds back for its one-time server features call (6.2.1 `supports`).
   */
  async appendToStream(streamId: string, events: EventData[], options: AppendOptions = {}): Promise<AppendResult> {
    this.assertOpen();
    assertWritableStreamId(streamId);
    const { expected, link } = expectationOf(options);
    toClientExpectedRevision(expected); // a RangeError for an expected revision the port does not know
    const batch = normaliseBatch(streamId, events);
    return this.streamOrder.run(streamId, () => this.appendLimiter.run(() => this.appendNow(streamId, batch, expected, link)));
  }

  /**
   * Events of `streamId` with revision ≥ `fromRevision` (default 0) in revision order, at most `maxCount` (default all); `[]`
   * when the stream does not exist (the client's StreamNotFoundError). Port: {@link EventStore.readStream}.
   */
  async readStream(streamId: string, options: { fromRevision?: number; maxCount?: number } = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const { fromRevision = 0, maxCount } = options;
    assertPortPosition(fromRevision, 'fromRevision');
    if (maxCount !== undefined && !(Number.isInteger(maxCount) && maxCount >= 1)) throw new RangeError(`maxCount ≥ 1, got ${maxCount}`);
    const bound = maxCount === undefined ? {} : { maxCount: BigInt(maxCount) };
    return this.readLimiter.run(() => this.readStreamEvents(streamId, { fromRevision: BigInt(fromRevision), ...bound }));
  }

  /**
   * Up to `maxCount` (default 1000) non-system events with position > `fromPosition` (default 0)
   * that match `filter`, in position order (port: {@link EventStore.readAll}).
   *
   * Client 6.2's `readAll` has no server-side filter, so this reads `$all` forwards in pages of
   * `readAllPageSize` records from `fromPosition` (the client's start is inclusive: the event at
   * exactly `fromPosition` is skipped) and filters here, until `maxCount` matches or the end of the
   * log. A selective filter can therefore scan far in one call. Rejects with a RangeError for a
   * negative `fromPosition` or a `maxCount` below 1.
   */
  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    return this.readLimiter.run(() => this.readAllNow(options));
  }

  private async readAllNow(options: ReadAllOptions): Promise<RecordedEvent[]> {
    const fromPosition = options.fromPosition ?? 0;
    const maxCount = options.maxCount ?? DEFAULT_EVENTSTOREDB_READ_ALL_MAX_COUNT;
    assertPortPosition(fromPosition);
    if (!Number.isInteger(maxCount) || maxCount < 1) throw new RangeError(`maxCount must be an integer ≥ 1, got ${maxCount}`);
    const filter = normaliseFilter(options.filter);

    const found: RecordedEvent[] = [];
    let cursor: ReadPosition = toReadPosition(fromPosition);
    let skip: Position | null = typeof cursor === 'string' ? null : cursor;
    for (;;) {
      const page: AllStreamResolvedEvent[] = await collectWithin(
        this.readDeadlineMs,
        this.client.readAll({ fromPosition: cursor, maxCount: this.readAllPageSize, direction: FORWARDS, resolveLinkTos: false }),
      );
      let fresh = 0;
      let last: Position | null = null;
      for (const { event } of page) {
        if (event === undefined) continue;
        last = event.position;
        if (skip !== null && samePosition(event.position, skip)) continue;
        fresh++;
        if (isSystemEvent(event.streamId, event.type) || !matchesEventFilter(filter, event.streamId, event.type)) continue;
        const recorded = fromClientEvent(event, event.position);
        if (recorded.position <= fromPosition) continue;
        found.push(recorded);
        if (found.length === maxCount) return found;
      }
      if (page.length < this.readAllPageSize || fresh === 0 || last === null) return found;
      cursor = last;
      skip = last;
    }
  }

  /**
   * A catch-up subscription to `$all` after `fromPosition` (exclusive, default 0) matching `filter`,
   * resilient to drops (see eventstoredb-subscription.ts). Port: {@link EventStore.subscribeToAll}.
   * Throws a RangeError for an invalid `fromPosition`.
   */
  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    this.assertOpen();
    const fromPosition = options.fromPosition ?? 0;
    assertPortPosition(fromPosition);
    const subscription = new EventStoreDbSubscription(
      {
        subscribe: (from, filter) => this.client.subscribeToAll({ fromPosition: from, filter, resolveLinkTos: false }),
        forget: (s) => this.subscriptions.delete(s),
        matchingHead: (filter) =>
          this.readLimiter.run(() =>
            newestPosition(this.backwardsRead, (streamId, type) => matchesEventFilter(filter, streamId, type), {
              pageSize: HEAD_PAGE_SIZE,
              maxRecords: STALL_CHECK_RECORDS,
            }),
          ),
      },
      fromPosition,
      normaliseFilter(options.filter),
      { ...this.subscriptionSettings },
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  /**
   * Position of the newest non-system event in `$all`, `LOG_START` when there is none: reads `$all`
   * backwards from the end in small pages until it meets one. Port: {@link EventStore.headPosition}.
   */
  async headPosition(): Promise<LogPosition> {
    this.assertOpen();
    return this.readLimiter.run(
      async () => (await newestPosition(this.backwardsRead, () => true, { pageSize: HEAD_PAGE_SIZE })) ?? LOG_START,
    );
  }

  /** One backwards read of `$all` within the read deadline (for {@link newestPosition}). */
  private readonly backwardsRead: BackwardsRead = (from, maxCount) =>
    collectWithin(this.readDeadlineMs, this.client.readAll({ fromPosition: from, maxCount, direction: BACKWARDS, resolveLinkTos: false }));

  /**
   * Ends every subscription of this store, disposes the client's calls and closes its gRPC channel
   * (`dispose()` of client 6.2.1 cancels the calls but leaves the channel open).
   * Safe to call twice.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const subscription of [...this.subscriptions]) await subscription.unsubscribe();
    await this.client.dispose();
    await closeChannel(this.client);
  }

  /**
   * The append itself. The events are chained to the stream's head (docs/DESIGN.md "Verifiable
   * history"), so the append always names the exact revision it chains to: with `any` or
   * `stream_exists` that is the head read before it (the same read that looks for a retried batch),
   * and an append that loses a race to another writer is chained again to the new head, up to
   * {@link CHAIN_ATTEMPTS} times. With a numeric expectation, `previousHash` (the link the caller passed back) saves reading it.
   */
  private async appendNow(
    streamId: string,
    batch: EventData[],
    expected: ExpectedRevision,
    previousHash: string | null | undefined,
  ): Promise<AppendResult> {
    this.assertOpen();
    if (batch.length === 0) return this.checkWithoutWriting(streamId, expected);
    const ids = batch.map((e) => e.id);

    let appended: ClientAppendResult;
    for (let attempt = 1; ; attempt++) {
      const readsHead = expected === 'any' || expected === 'stream_exists';
      let head: ChainHead;
      if (readsHead) {
        const stored = await this.readStreamEvents(streamId, { requiresLeader: true });
        const earlier = retryResult(streamId, stored, ids);
        if (earlier !== null) return earlier;
        if (expected === 'stream_exists' && stored.length === 0) throw new WrongExpectedVersionError(streamId, expected, 'no_stream');
        head = { revision: stored.length === 0 ? null : stored[stored.length - 1].streamRevision, hash: headHashOf(streamId, stored) };
      } else {
        try {
          head = await chainHeadAt((options) => this.readStreamEvents(streamId, options), streamId, expected, previousHash);
        } catch (error) {
          if (!(error instanceof WrongExpectedVersionError)) throw error;
          const earlier = await this.retryOf(streamId, ids);
          if (earlier !== null) return earlier;
          throw error;
        }
      }
      const exact = head.revision === null ? NO_STREAM : BigInt(head.revision);
      try {
        appended = await this.client.appendToStream(streamId, toChainedClientEvents(streamId, head, batch), { expectedRevision: exact });
        break;
      } catch (error) {
        if (!isClientWrongExpectedVersion(error)) throw error;
        const earlier = await this.retryOf(streamId, ids);
        if (earlier !== null) return earlier;
        if (readsHead && attempt < CHAIN_ATTEMPTS) continue;
        throw toPortWrongExpectedVersion(error, streamId, expected);
      }
    }
    if (!appended.success) {
      // Only with a client built with `throwOnAppendFailure: false`: a wrong expected version.
      const earlier = await this.retryOf(streamId, ids);
      if (earlier !== null) return earlier;
      throw new WrongExpectedVersionError(streamId, expected, fromClientCurrentRevision(appended.nextExpectedRevision));
    }
    return readBack((options) => this.readStreamEvents(streamId, options), streamId, batch, appended.nextExpectedRevision);
  }

  /**
   * The original result when `ids` were appended to `streamId` before as one batch; null when none
   * was; throws {@link IdempotencyConflictError} when some were, or not as that batch.
   */
  private async retryOf(streamId: string, ids: string[]): Promise<AppendResult | null> {
    return retryResult(streamId, await this.readStreamEvents(streamId, { requiresLeader: true }), ids);
  }

  /** An empty batch: checks `expected` against the stream's last event and returns its state. */
  private async checkWithoutWriting(streamId: string, expected: ExpectedRevision): Promise<AppendResult> {
    const [last] = await this.readStreamEvents(streamId, {
      fromRevision: END,
      direction: BACKWARDS,
      maxCount: 1,
      requiresLeader: true,
    });
    const actual = last === undefined ? 'no_stream' : last.streamRevision;
    if (!expectedRevisionMatches(expected, actual)) throw new WrongExpectedVersionError(streamId, expected, actual);
    return { nextExpectedRevision: last?.streamRevision ?? -1, position: last?.position ?? 0 };
  }

  private async readStreamEvents(streamId: string, options: ReadStreamOptions): Promise<RecordedEvent[]> {
    let resolved: ResolvedEvent[];
    try {
      resolved = await collectWithin(
        this.readDeadlineMs,
        this.client.readStream(streamId, { direction: FORWARDS, resolveLinkTos: false, ...options }),
      );
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      throw error;
    }
    const events: RecordedEvent[] = [];
    for (const { event } of resolved) if (event !== undefined) events.push(fromClientEvent(event));
    return events;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('EventStoreDbEventStore is closed');
  }
}
