/**
 * The event store port (docs/DESIGN.md "The event store port"), shaped after EventStoreDB's client.
 *
 * Streams are named `<category>-<id>` (a trainee lives in `trainee-<trainee_id>`). Revisions count
 * from 0 within a stream; positions are global, strictly increasing integers starting at 1, in the
 * order events were committed. A checkpoint is the position of the last event a reader has handled.
 */
import type { LogPosition } from './log-position';

export { earlierPosition, LOG_START, laterPosition, logPosition, type LogPosition } from './log-position';

/** Who caused an event and when. Never holds a token, only the token's id. */
export interface EventMetadata {
  /** Version of the event's `data` schema; old versions are upcast on read. */
  schemaVersion: number;
  /** ISO 8601 instant, UTC, millisecond precision (`2026-01-05T10:00:00.000Z`). */
  occurredAt: string;
  providerUkprn?: string | null;
  apiVersion?: string | null;
  requestId?: string | null;
  causationId?: string | null;
  /** The request that began the chain of writes (docs/observability.md "Traces"). */
  correlationId?: string | null;
  /** The W3C trace context of the span that appended the event, when tracing is on. */
  traceparent?: string | null;
  tokenId?: string | null;
  [key: string]: unknown;
}

/** An event to append. `id` is a UUID chosen by the writer; re-appending the same ids is a no-op. */
export interface EventData<T = unknown> {
  id: string;
  type: string;
  data: T;
  metadata: EventMetadata;
}

/** An event as stored, with its place in its stream and in the global log. */
export interface RecordedEvent<T = unknown> extends EventData<T> {
  streamId: string;
  /** 0-based revision within the stream. */
  streamRevision: number;
  /** Global position, ≥ 1, strictly increasing in commit order. */
  position: LogPosition;
}

/** An event as stored, its data and metadata as the stored JSON texts (what the hash chain hashes). */
export interface StoredEventText {
  streamId: string;
  revision: number;
  /** The event's id (the writer's UUID), which a version 2 chain hash covers. */
  id: string;
  type: string;
  data: string;
  metadata: string;
  /** The event's global position, where the reader has it (what a signed digest's position is compared with). */
  position?: LogPosition;
}

/**
 * `no_stream`: the stream must not exist; `stream_exists`: it must exist; `any`: no check;
 * a number: the stream's last revision must be exactly that.
 */
export type ExpectedRevision = 'no_stream' | 'stream_exists' | 'any' | number;

declare const chainLinkBrand: unique symbol;

/**
 * What a store chains a stream's next event to (docs/DESIGN.md "Verifiable history"): opaque to
 * everything but the stores and the chain module (libs/event-sourcing/hash-chain.ts), which alone
 * make and read it.
 */
export type ChainLink = string & { readonly [chainLinkBrand]: true };

/**
 * Where a stream stood when it was read: the revision of its last event, and what the store needs
 * to chain the next append to that event (`link`; null when not known). A reader gets it from the
 * last event it read (`streamHeadOf`) or from a snapshot that kept it, and hands it back as an
 * append's `expectedRevision`: the revision is expected, and a store that cannot read the stream's
 * head inside the append (EventStoreDB) chains to the link without reading it.
 */
export interface StreamHead {
  readonly revision: number;
  readonly link: ChainLink | null;
}

export interface AppendOptions {
  /**
   * What the stream must be before the append ({@link ExpectedRevision}), or the {@link StreamHead}
   * the caller read: its revision is then expected exactly, and its link is what a store that
   * chains without reading chains the new events to. A store that reads the head in the append's
   * own transaction (SQLite) goes by what it reads, and refuses with {@link StreamChainBrokenError}
   * a stream whose stored events no longer make their chain.
   */
  expectedRevision?: ExpectedRevision | StreamHead;
}

/**
 * An append's expectation, its revision and its link apart (for the adapters): `any` when none was
 * given; the link only with a {@link StreamHead}, else null.
 */
export function expectationOf(options: AppendOptions): { expected: ExpectedRevision; link: ChainLink | null } {
  const given = options.expectedRevision ?? 'any';
  return typeof given === 'object' && given !== null ? { expected: given.revision, link: given.link } : { expected: given, link: null };
}

export interface AppendResult {
  /** Revision of the last event in the stream after the append. */
  nextExpectedRevision: number;
  /** Global position of the last event appended (or of the original append, when idempotent). */
  position: LogPosition;
}

/** Which events a global read or subscription yields; both lists are OR-ed, empty means all. */
export interface EventFilter {
  streamPrefixes?: string[];
  eventTypes?: string[];
}

export interface ReadAllOptions {
  /** Exclusive: yields events whose position is greater than this. Default `LOG_START` (from the start). */
  fromPosition?: LogPosition;
  /** Upper bound on events returned by one call. Default 1000. */
  maxCount?: number;
  filter?: EventFilter;
}

export interface SubscribeOptions {
  /** Exclusive checkpoint, as in {@link ReadAllOptions.fromPosition}. */
  fromPosition?: LogPosition;
  filter?: EventFilter;
}

/** A catch-up subscription: historical events first, then live ones, in position order. */
export interface Subscription extends AsyncIterable<RecordedEvent> {
  unsubscribe(): Promise<void>;
}

/** Raised when an append's expected revision does not match the stream. */
export class WrongExpectedVersionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`Wrong expected version on ${streamId}: expected ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedVersionError';
  }
}

/**
 * Raised by an append when a stored event of the stream no longer makes its chain (docs/DESIGN.md
 * "Verifiable history": its stored form does not make its stored hash, it is not linked to the
 * event before it, or it is missing, or unchained after chained events): the log was altered
 * outside the service, and the append is refused rather than chain new events onto a broken chain.
 * `revision` is the first revision found broken. The message names the stream and that revision,
 * never a value; the API answers it 500 without detail (docs/operations.md "Verifying the history"
 * says what the operator does).
 */
export class StreamChainBrokenError extends Error {
  constructor(
    readonly streamId: string,
    readonly revision: number,
  ) {
    super(`the stored chain of ${streamId} breaks at revision ${revision}: the write is refused`);
    this.name = 'StreamChainBrokenError';
  }
}

/**
 * Raised when the event store cannot take a call now: too many calls already wait, or a call did not
 * finish within its deadline, so that an overloaded or unreachable store answers at once instead of
 * holding requests open. The API answers 503; the caller may retry later.
 */
export class EventStoreUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EventStoreUnavailableError';
  }
}

/**
 * Raised by a subscription that cannot go on: subscribing again would fail the same way (access
 * denied, an invalid argument, a position the store cannot map, or an unexplained error repeated
 * without anything delivered in between). Its consumer should stop the process, so that the
 * supervisor restarts it and the failure shows instead of the projections silently falling behind
 * (docs/DESIGN.md "Failures of the subscription"). `cause` is the store's own error.
 */
export class PermanentSubscriptionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentSubscriptionError';
  }
}

/** Raised when ids of an earlier append are re-used with different content or position. */
export class IdempotencyConflictError extends Error {
  constructor(
    readonly streamId: string,
    readonly eventId: string,
  ) {
    super(`Event ${eventId} was already appended, but not as the same batch of ${streamId}`);
    this.name = 'IdempotencyConflictError';
  }
}

/** What {@link EventStore.readStream} reads of one stream. */
export interface ReadStreamOptions {
  /** Inclusive: the first revision read. Default 0. */
  fromRevision?: number;
  /**
   * Upper bound on the events returned (integer ≥ 1), so that a page of a long stream costs the
   * page (docs/operations.md "Trainee history"). Default: no bound.
   */
  maxCount?: number;
}

/** What {@link EventStore.readStreamsByPrefix} reads: whole streams of one category, in stream-id order. */
export interface ReadStreamsOptions {
  /** The streams whose id starts with this (case-sensitive), e.g. `trainee-`. */
  streamPrefix: string;
  /** Only streams whose id sorts after this one (binary order); null or absent: from the first. */
  afterStream?: string | null;
  /** Inclusive: only events at or below this global position (a snapshot of the log, e.g. its head). */
  toPosition: LogPosition;
  /**
   * Events per call, roughly: streams are read whole, so the call stops after the stream during
   * which this many events were reached (one long stream may exceed it). Integer ≥ 1.
   */
  maxCount: number;
}

/** What {@link StoredLog.readStoredStreams} reads: whole streams of every category, in stream-id order. */
export interface ReadStoredStreamsOptions {
  /** Only streams whose id sorts after this one (binary order); null or absent: from the first. */
  afterStream?: string | null;
  /** Only streams whose id sorts before this one (binary order); null or absent: to the last. */
  beforeStream?: string | null;
  /** Events per call, roughly: streams are read whole, so one long stream may exceed it. Integer ≥ 1. */
  maxCount: number;
}

/** One stream's part of {@link EventStore.appendToStreams}. */
export interface StreamWrite {
  streamId: string;
  events: EventData[];
  options?: AppendOptions;
}

/**
 * The port every adapter implements (SQLite for the embedded default, EventStoreDB in production).
 * What the commands and the projections use: in every process the events of personal-data streams
 * are sealed on append and opened on read (docs/DESIGN.md "Personal data"), so its reads give the
 * events as they were appended. The log as stored is the other port, {@link StoredLog}.
 */
export interface EventStore {
  /**
   * Appends `events` atomically to `streamId`. Throws {@link WrongExpectedVersionError} on a
   * revision mismatch. Appending a batch whose ids were all appended before to the same stream
   * returns the original result and writes nothing.
   */
  appendToStream(streamId: string, events: EventData[], options?: AppendOptions): Promise<AppendResult>;
  /**
   * Appends to several streams all-or-nothing: every write is checked and stored as
   * {@link appendToStream} would, in one transaction; if one throws, nothing of any is stored and
   * that error is thrown. Results in the order of `writes`. Only stores with multi-stream
   * transactions have it (SQLite; EventStoreDB has none, docs/DESIGN.md "The event store port").
   */
  appendToStreams?(writes: StreamWrite[]): Promise<AppendResult[]>;
  /**
   * Whole streams in stream-id order, each stream's events in revision order, up to a position
   * (see {@link ReadStreamsOptions}); `[]` past the last stream. Lets a projection build each
   * document once from its whole stream (docs/DESIGN.md "Rebuilding by stream"). Only
   * stores with an index on stream ids have it (SQLite); EventStoreDB reads `$all` instead.
   */
  readStreamsByPrefix?(options: ReadStreamsOptions): Promise<RecordedEvent[]>;
  /**
   * The stream's events from `fromRevision` (default 0), in revision order, at most `maxCount` of
   * them (an integer ≥ 1; default: all); `[]` when the stream does not exist. A RangeError for a
   * negative or fractional `fromRevision` or a `maxCount` below 1.
   */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** One batch of the global log in position order (see {@link ReadAllOptions}). */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Catch-up then live subscription to the global log. */
  subscribeToAll(options?: SubscribeOptions): Subscription;
  /** Position of the newest event in the store, {@link LOG_START} when empty. */
  headPosition(): Promise<LogPosition>;
  /** Releases connections and stops subscriptions. */
  close(): Promise<void>;
}

/**
 * The log as stored, read-only: the second port of every adapter (docs/DESIGN.md "The event store
 * port"). Its reads give what the store holds: personal values sealed (`data.sealed`), never opened,
 * so they read no data key and cost no decryption. For those that must see the bytes as stored or
 * need only positions, times and counts: the audit (the chain hashes the stored texts), the export,
 * a projection's lag, the webhook dispatcher's positions, the list at an instant's scan. The
 * methods are {@link EventStore}'s reads, with the same checks and answers, beneath the sealing.
 */
export interface StoredLog {
  /** As {@link EventStore.readStream}, as stored. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** As {@link EventStore.readAll}, as stored. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** As {@link EventStore.readStreamsByPrefix}, as stored; only stores with an index on stream ids have it (SQLite). */
  readStreamsByPrefix?(options: ReadStreamsOptions): Promise<RecordedEvent[]>;
  /**
   * Whole streams of every category in stream-id order, each stream's events in revision order,
   * as stored: data and metadata as the stored JSON texts, sealed values sealed (see
   * {@link ReadStoredStreamsOptions}); `[]` past the last stream. What the audit's check of the
   * hash chain reads (docs/DESIGN.md "Verifiable history"). Only stores that keep the texts and
   * index stream ids have it (SQLite); for others the check reads the log through the other methods.
   */
  readStoredStreams?(options: ReadStoredStreamsOptions): Promise<StoredEventText[]>;
  /**
   * One stream's events as stored (texts as {@link readStoredStreams} gives them, with positions),
   * from `fromRevision` in revision order, at most `maxCount` (the checks of `EventStore.readStream`);
   * `[]` for an unknown stream. Lets the auditor's report check a long stream's chain a chunk at a
   * time (docs/operations.md "Trainee history"). Only stores that keep the texts have it (SQLite);
   * for others the report reads the stream through {@link readStream}.
   */
  readStoredStream?(streamId: string, options?: ReadStreamOptions): Promise<StoredEventText[]>;
  /** Position of the newest event in the store, {@link LOG_START} when empty. */
  headPosition(): Promise<LogPosition>;
}

/** Injection token for the {@link EventStore} port. */
export const EVENT_STORE = Symbol('EVENT_STORE');

/** Injection token for the {@link StoredLog} port. */
export const STORED_LOG = Symbol('STORED_LOG');
