/**
 * EventStoreDB adapter of the event store port (docs/DESIGN.md "The event store port"), on `@eventstore/db-client` 6.2 (gRPC; server
 * 22.6+), selected by `EVENTSTORE_URL`. Positions: positions.ts; filters: filters.ts; subscriptions: eventstoredb-subscription.ts;
 * idempotent retries: idempotency.ts; the hash chain: chain-head.ts.
 *
 * Event ids go to the server as its event ids, but the port promises more (the original result for a retry whatever the expectation;
 * IdempotencyConflictError for partial or reordered re-use), so the batch's ids are compared with the stream's last events
 * (idempotency.ts `recentEvents`) before an `any` or `stream_exists` append (which the server deduplicates best-effort only) and after
 * a WrongExpectedVersion. A successful append is read
 * back (one indexed read): the response carries one position per batch, and what it carries for a deduplicated retry is undocumented.
 *
 * Limits, which the SQLite adapter does not have: ids are unique per stream only (re-use in another stream is not detected: the
 * contract's test for it fails here); an exact expected revision that matches appends even ids already earlier in the stream; a
 * retry is looked for among the stream's last `RETRY_WINDOW` events only; the `any` pre-check and the append are two requests, so two
 * concurrent `any` appends of the same new ids can both be written.
 */
import { BACKWARDS, END, EventStoreDBClient, FORWARDS, MaxAppendSizeExceededError, NO_STREAM } from '@eventstore/db-client';
import type { AppendResult as ClientAppendResult, ReadStreamOptions, ResolvedEvent } from '@eventstore/db-client';
import {
  closeChannel,
  collectWithin,
  DEFAULT_MAX_CONCURRENT_APPENDS,
  DEFAULT_MAX_CONCURRENT_READS,
  DEFAULT_MAX_QUEUED_CALLS,
  DEFAULT_READ_DEADLINE_MS,
  DEFAULT_SERVER_FEATURES_DEADLINE_MS,
  DEFAULT_APPEND_DEADLINE_MS,
  unavailableIfTransient,
  within,
} from './client-calls';
import {
  AppendTooLargeError,
  EventStoreUnavailableError,
  expectationOf,
  KeyedLock,
  LOG_START,
  AppendOptions,
  AppendResult,
  EventData,
  EventStore,
  ExpectedRevision,
  LogPosition,
  ReadAllOptions,
  RecordedEvent,
  StreamDeletedError,
  SubscribeOptions,
  Subscription,
  WrongExpectedVersionError,
} from '@app/event-sourcing';
import { BackoffOptions } from './backoff';
import { ConcurrencyLimiter } from './concurrency-limiter';
import { isClientStreamDeleted, isClientWrongExpectedVersion, isStreamNotFound, toPortWrongExpectedVersion } from './errors';
import { assertWritableStreamId, fromClientEvent, normaliseBatch, toChainedClientEvents } from './event-mapping';
import { EventStoreDbSubscription, type SubscriptionLogger, type SubscriptionSettings } from './eventstoredb-subscription';
import { matchesEventFilter, normaliseFilter } from './filters';
import { CHAIN_ATTEMPTS, chainHeadAfter, chainHeadAt, type ChainHead } from './chain-head';
import { readBack, recentEvents, retryResult } from './idempotency';
import { EmptyScans, scanAll, type ForwardsRead } from './all-scan';
import { BackwardsRead, newestHead, newestPosition, type KnownHead } from './newest-event';
import { assertPortPosition, expectedRevisionMatches, fromClientCurrentRevision, toClientExpectedRevision } from './positions';

/** `$all` records one `readAll` request fetches, before filtering here. */
export const DEFAULT_READ_ALL_PAGE_SIZE = 512;
const HEAD_PAGE_SIZE = 32;
/** Newest `$all` records a subscription's stall check looks through for an event its filter matches. */
const STALL_CHECK_RECORDS = 256;

export interface EventStoreDbEventStoreOptions {
  /** Further appends wait FIFO. */
  maxConcurrentAppends?: number;
  subscriptionBackoff?: BackoffOptions;
  /** Retries and stalls of subscriptions, and their stall threshold in ms (eventstoredb-subscription.ts). */
  logger?: SubscriptionLogger;
  stallAfterMs?: number;
  /** Integer ≥ 2. */
  readAllPageSize?: number;
  /** Calls waiting per limiter before more fail; a read's deadline in ms. */
  maxConcurrentReads?: number;
  maxQueuedCalls?: number;
  readDeadlineMs?: number;
  /** A client on the same server, to replace one whose server features call failed or went unanswered before an append. */
  newClient?: () => EventStoreDBClient;
  /** How long the server features call may take before the client is replaced, ms. */
  serverFeaturesDeadlineMs?: number;
  /** How long an append may go unanswered before it fails with EventStoreUnavailableError (it may yet be written), ms. */
  appendDeadlineMs?: number;
}

/** What of client 6.2.1's protected members the adapter reads: the server features call, made once and kept (`Client/index.ts`). */
interface ClientCapabilities {
  readonly capabilities: Promise<unknown>;
}

/** Through one `EventStoreDBClient`, as the module doc maps it; every method rejects once {@link close} was called. */
export class EventStoreDbEventStore implements EventStore {
  private readonly appendLimiter: ConcurrencyLimiter;
  /** Appends to one stream, one at a time in call order ({@link appendToStream}). */
  private readonly streamOrder = new KeyedLock();
  private readonly readLimiter: ConcurrencyLimiter;
  private readonly readDeadlineMs: number;
  private readonly subscriptions = new Set<EventStoreDbSubscription>();
  private readonly subscriptionSettings: SubscriptionSettings;
  private readonly readAllPageSize: number;
  private readonly newClient: (() => EventStoreDBClient) | null;
  private readonly serverFeaturesDeadlineMs: number;
  private readonly appendDeadlineMs: number;
  /** The client whose server features call has answered: its appends wait no more. */
  private answeredClient: EventStoreDBClient | null = null;
  /** Of {@link readAll}'s filters. */
  private readonly emptyScans = new EmptyScans();
  /** The latest head read ({@link headPosition}). */
  private knownHead: KnownHead | null = null;
  private closed = false;

  /**
   * Owns `client` and each client that replaces it ({@link close} disposes it). RangeError for an invalid `maxConcurrentAppends` or
   * `readAllPageSize`.
   */
  constructor(
    private client: EventStoreDBClient,
    options: EventStoreDbEventStoreOptions = {},
  ) {
    this.newClient = options.newClient ?? null;
    this.serverFeaturesDeadlineMs = options.serverFeaturesDeadlineMs ?? DEFAULT_SERVER_FEATURES_DEADLINE_MS;
    this.appendDeadlineMs = options.appendDeadlineMs ?? DEFAULT_APPEND_DEADLINE_MS;
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

  /** For metrics and health answers. */
  get appendLoad(): { active: number; queued: number } {
    return { active: this.appendLimiter.active, queued: this.appendLimiter.queued };
  }

  /**
   * Port: {@link EventStore.appendToStream}. Rejects with WrongExpectedVersionError, IdempotencyConflictError (limits in the module doc),
   * AppendTooLargeError for a batch over the server's `MaxAppendSize`, StreamDeletedError for a tombstoned stream,
   * `StreamChainBrokenError` when what it read to chain to does not make its chain (chain-head.ts), TypeError for invalid events (ids
   * UUIDs; no `$`-prefixed stream ids or types), RangeError for an unknown expectation, and the client's errors. An empty batch only
   * checks the expectation. Appends to one stream run in call order, as on SQLite (docs/DESIGN.md "Group commit"): else a head read
   * for a numeric expectation could overtake an append the client holds back for its one-time features call (6.2.1 `supports`).
   */
  async appendToStream(streamId: string, events: EventData[], options: AppendOptions = {}): Promise<AppendResult> {
    this.assertOpen();
    assertWritableStreamId(streamId);
    const { expected, link } = expectationOf(options);
    toClientExpectedRevision(expected); // a RangeError for an expected revision the port does not know
    const batch = normaliseBatch(streamId, events);
    return this.streamOrder.run(streamId, () => this.appendLimiter.run(() => this.appendNow(streamId, batch, expected, link)));
  }

  /** Port: {@link EventStore.readStream}; `[]` when the stream does not exist; StreamDeletedError when it was tombstoned. */
  async readStream(streamId: string, options: { fromRevision?: number; maxCount?: number } = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const { fromRevision = 0, maxCount } = options;
    assertPortPosition(fromRevision, 'fromRevision');
    if (maxCount !== undefined && !(Number.isInteger(maxCount) && maxCount >= 1)) throw new RangeError(`maxCount ≥ 1, got ${maxCount}`);
    const bound = maxCount === undefined ? {} : { maxCount: BigInt(maxCount) };
    return this.readLimiter.run(() => this.readStreamEvents(streamId, { fromRevision: BigInt(fromRevision), ...bound }));
  }

  /** Port: {@link EventStore.readAll}: `$all` read forwards in pages and filtered here, a scan that found none remembered (all-scan.ts). */
  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    return this.readLimiter.run(() => scanAll(this.forwardsRead, options, this.readAllPageSize, this.emptyScans));
  }

  /** Port: {@link EventStore.subscribeToAll}, resilient to drops (eventstoredb-subscription.ts). RangeError for a bad `fromPosition`. */
  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    this.assertOpen();
    const fromPosition = options.fromPosition ?? LOG_START;
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

  /** Port: {@link EventStore.headPosition}: `$all` read backwards in small pages to the newest event, or to what the last call read. */
  async headPosition(): Promise<LogPosition> {
    this.assertOpen();
    return this.readLimiter.run(async () => {
      // A call overtaken by a later one may leave an older head known: still true of the log, only less of it.
      this.knownHead = await newestHead(this.backwardsRead, this.knownHead, HEAD_PAGE_SIZE);
      return this.knownHead.head;
    });
  }

  private readonly forwardsRead: ForwardsRead = (from, maxCount) =>
    collectWithin(this.readDeadlineMs, this.client.readAll({ fromPosition: from, maxCount, direction: FORWARDS, resolveLinkTos: false }));

  private readonly backwardsRead: BackwardsRead = (from, maxCount) =>
    collectWithin(this.readDeadlineMs, this.client.readAll({ fromPosition: from, maxCount, direction: BACKWARDS, resolveLinkTos: false }));

  /** Safe twice. Closes the gRPC channel too: client 6.2.1's `dispose()` cancels the calls but leaves it open. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const subscription of [...this.subscriptions]) await subscription.unsubscribe();
    await this.client.dispose();
    await closeChannel(this.client);
  }

  /**
   * Always names the exact revision the events chain to (docs/DESIGN.md "Verifiable history"): with `any` or `stream_exists` the
   * stream's last events read before (`recentEvents`, which also finds a retried batch; the last one's hash checked alone, as with a
   * number), chained again to a new head up to {@link CHAIN_ATTEMPTS} times when it loses a race; with a number, `previousHash` (the
   * link the caller passed back) saves reading it.
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
        const read = (options: ReadStreamOptions) => this.readStreamEvents(streamId, options);
        const recent = await recentEvents(read, ids);
        const earlier = retryResult(streamId, recent, ids);
        if (earlier !== null) return earlier;
        if (expected === 'stream_exists' && recent.length === 0) throw new WrongExpectedVersionError(streamId, expected, 'no_stream');
        head = await chainHeadAfter(read, streamId, recent[recent.length - 1]);
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
      await this.serverFeaturesAnswered();
      try {
        appended = await within(
          this.appendDeadlineMs,
          this.client.appendToStream(streamId, toChainedClientEvents(streamId, head, batch), { expectedRevision: exact }),
          `an EventStoreDB append to ${streamId} got no answer in ${this.appendDeadlineMs} ms: it may yet be written`,
        );
        break;
      } catch (error) {
        if (error instanceof MaxAppendSizeExceededError) throw new AppendTooLargeError(streamId, error.maxAppendSize);
        if (isClientStreamDeleted(error)) throw new StreamDeletedError(streamId);
        if (!isClientWrongExpectedVersion(error)) throw unavailableIfTransient(error, 'an append');
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
   * Waits for the client's server features call, which every append of client 6.2.1 waits for (`supports`) and which the client keeps
   * for its life when it fails other than UNAVAILABLE, or never ends when unanswered (it has no deadline): every later append would
   * fail or hang while reads stay well. Failed or past `serverFeaturesDeadlineMs`, the client is replaced by a new one (when
   * `newClient` was given; the old one is disposed, its calls cancelled, subscriptions resubscribing) and this append fails with
   * EventStoreUnavailableError (the API: 503), nothing written.
   */
  private async serverFeaturesAnswered(): Promise<void> {
    const client = this.client;
    if (client === this.answeredClient) return;
    const ms = this.serverFeaturesDeadlineMs;
    try {
      await within(ms, (client as unknown as ClientCapabilities).capabilities, `no answer in ${ms} ms`);
      this.answeredClient = client;
    } catch (error) {
      const newClient = this.newClient;
      const renewed = this.client === client && newClient !== null && !this.closed;
      if (renewed) {
        this.client = newClient();
        client
          .dispose()
          .then(() => closeChannel(client))
          .catch(() => undefined);
      }
      throw new EventStoreUnavailableError(
        `EventStoreDB's server features call failed (${(error as Error).message})${renewed ? '; a new client is made' : ''}`,
      );
    }
  }

  /** The original result when `ids` were appended as one batch; null when not; IdempotencyConflictError when some were, or not so. */
  private async retryOf(streamId: string, ids: string[]): Promise<AppendResult | null> {
    return retryResult(streamId, await recentEvents((options) => this.readStreamEvents(streamId, options), ids), ids);
  }

  /** An empty batch. */
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
      if (isClientStreamDeleted(error)) throw new StreamDeletedError(streamId);
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
