/** The event store port, after EventStoreDB's client (docs/DESIGN.md "The event store port"): revisions from 0, positions from 1. */
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
  correlationId?: string | null;
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
  streamRevision: number;
  position: LogPosition;
}

/** An event as stored, data and metadata as the stored JSON texts the hash chain hashes. */
export interface StoredEventText {
  streamId: string;
  revision: number;
  id: string;
  type: string;
  data: string;
  metadata: string;
  /** Where the reader has it: what a signed digest's position is compared with. */
  position?: LogPosition;
}

/** `no_stream`, `stream_exists`, `any` (no check), or the exact revision of the stream's last event. */
export type ExpectedRevision = 'no_stream' | 'stream_exists' | 'any' | number;

declare const chainLinkBrand: unique symbol;

/** What a store chains a stream's next event to; made and read only by the stores and hash-chain.ts. */
export type ChainLink = string & { readonly [chainLinkBrand]: true };

/**
 * Where a stream stood when read (`streamHeadOf` its last event, or a snapshot's): handed back as an append's `expectedRevision`,
 * its revision expected exactly; a store that cannot read the head inside the append (EventStoreDB) chains to `link` (null: unknown).
 */
export interface StreamHead {
  readonly revision: number;
  readonly link: ChainLink | null;
}

export interface AppendOptions {
  /** A {@link StreamHead}'s revision is expected exactly; SQLite chains to the head it reads and refuses a broken chain. */
  expectedRevision?: ExpectedRevision | StreamHead;
}

/** An append's expectation split for the adapters: `any` when none; the link only from a {@link StreamHead}, else null. */
export function expectationOf(options: AppendOptions): { expected: ExpectedRevision; link: ChainLink | null } {
  const given = options.expectedRevision ?? 'any';
  return typeof given === 'object' && given !== null ? { expected: given.revision, link: given.link } : { expected: given, link: null };
}

export interface AppendResult {
  nextExpectedRevision: number;
  /** Of the last event appended (of the original append, when idempotent). */
  position: LogPosition;
}

/** Which events a global read or subscription yields; both lists are OR-ed, empty means all. */
export interface EventFilter {
  streamPrefixes?: string[];
  eventTypes?: string[];
}

export interface ReadAllOptions {
  /** Exclusive. Default `LOG_START`. */
  fromPosition?: LogPosition;
  /** Default 1000. */
  maxCount?: number;
  filter?: EventFilter;
}

export interface SubscribeOptions {
  fromPosition?: LogPosition;
  filter?: EventFilter;
}

/** A catch-up subscription: historical events first, then live ones, in position order. */
export interface Subscription extends AsyncIterable<RecordedEvent> {
  unsubscribe(): Promise<void>;
}

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

/** An append refused as a stored event of the stream no longer makes its chain (docs/DESIGN.md "Verifiable history"); API: 500. */
export class StreamChainBrokenError extends Error {
  constructor(
    readonly streamId: string,
    readonly revision: number,
  ) {
    super(`the stored chain of ${streamId} breaks at revision ${revision}: the write is refused`);
    this.name = 'StreamChainBrokenError';
  }
}

/** The event store cannot take a call now (too many waiting, or past its deadline); the API answers 503. */
export class EventStoreUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EventStoreUnavailableError';
  }
}

/**
 * A batch refused whole, nothing written, as larger than the store takes in one append (`limitBytes`; EventStoreDB's
 * `MaxAppendSize`, 1 MiB by default, counts each event's data and metadata bytes and twice its type's length). The API answers 413.
 */
export class AppendTooLargeError extends Error {
  constructor(
    readonly streamId: string,
    readonly limitBytes: number,
  ) {
    super(`the event store refused an append to ${streamId} larger than its limit of ${limitBytes} bytes`);
    this.name = 'AppendTooLargeError';
  }
}

/**
 * The stream was deleted for good in the store (an EventStoreDB tombstone, set outside this service, which deletes no stream): it
 * takes no more events and cannot be read. The API answers 404.
 */
export class StreamDeletedError extends Error {
  constructor(readonly streamId: string) {
    super(`${streamId} was deleted from the event store for good: it takes no more events`);
    this.name = 'StreamDeletedError';
  }
}

/** A subscription that retrying would not mend: its consumer stops the process (docs/DESIGN.md "Failures of the subscription"). */
export class PermanentSubscriptionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentSubscriptionError';
  }
}

/**
 * A consumer's stored checkpoint is beyond the log's head: the log was restored or replaced under it (an EventStoreDB restored older
 * than the MongoDB beside it), and new events would take positions it counts as done and be skipped silently. `remedy` names the
 * command that mends it (docs/operations.md "Backups and restore").
 */
export class CheckpointAheadOfLog extends PermanentSubscriptionError {
  constructor(
    readonly consumer: string,
    readonly checkpoint: LogPosition,
    readonly head: LogPosition,
    remedy: string,
  ) {
    super(`${consumer}'s checkpoint ${checkpoint} is beyond the log's head ${head}: the log was restored or replaced under it; ${remedy}`);
    this.name = 'CheckpointAheadOfLog';
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

export interface ReadStreamOptions {
  fromRevision?: number;
  /** Integer ≥ 1, so a page of a long stream costs the page. Default: no bound. */
  maxCount?: number;
}

/** Whole streams of one category, in stream-id order. */
export interface ReadStreamsOptions {
  /** Case-sensitive, e.g. `trainee-`. */
  streamPrefix: string;
  /** Exclusive, binary order; null or absent: from the first. */
  afterStream?: string | null;
  /** Inclusive: events at or below this position only. */
  toPosition: LogPosition;
  /** Events per call, roughly (integer ≥ 1): streams are read whole, so one long stream may exceed it. */
  maxCount: number;
}

/** Whole streams of every category, in stream-id order. */
export interface ReadStoredStreamsOptions {
  /** Exclusive, binary order; null or absent: from the first. */
  afterStream?: string | null;
  /** Exclusive, binary order; null or absent: to the last. */
  beforeStream?: string | null;
  /** Events per call, roughly (integer ≥ 1): streams are read whole. */
  maxCount: number;
}

export interface StreamWrite {
  streamId: string;
  events: EventData[];
  options?: AppendOptions;
}

/** The port every adapter implements; it seals personal values on append and opens them on read (docs/DESIGN.md "Personal data"). */
export interface EventStore {
  /** Atomic; {@link WrongExpectedVersionError} on a revision mismatch; a batch whose ids were all appended returns the original result. */
  appendToStream(streamId: string, events: EventData[], options?: AppendOptions): Promise<AppendResult>;
  /** All-or-nothing over several streams, results in `writes` order; only stores with multi-stream transactions (SQLite). */
  appendToStreams?(writes: StreamWrite[]): Promise<AppendResult[]>;
  /** Whole streams up to a position (docs/DESIGN.md "Rebuilding by stream"); `[]` past the last. Only stores indexing stream ids. */
  readStreamsByPrefix?(options: ReadStreamsOptions): Promise<RecordedEvent[]>;
  /** In revision order; `[]` for an unknown stream; RangeError for a negative or fractional `fromRevision` or `maxCount` < 1. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** One batch of the global log in position order. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  subscribeToAll(options?: SubscribeOptions): Subscription;
  /** {@link LOG_START} when empty. */
  headPosition(): Promise<LogPosition>;
  close(): Promise<void>;
}

/** The log as stored, read-only, sealed values sealed: for the audit, the export and readers of positions, times and counts. */
export interface StoredLog {
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  readStreamsByPrefix?(options: ReadStreamsOptions): Promise<RecordedEvent[]>;
  /** Whole streams of every category as the stored texts, for the chain check; `[]` past the last. Only SQLite. */
  readStoredStreams?(options: ReadStoredStreamsOptions): Promise<StoredEventText[]>;
  /** One stream's stored texts with positions, checked as `EventStore.readStream`, for a report read in chunks. Only SQLite. */
  readStoredStream?(streamId: string, options?: ReadStreamOptions): Promise<StoredEventText[]>;
  headPosition(): Promise<LogPosition>;
}

export const EVENT_STORE = Symbol('EVENT_STORE');

export const STORED_LOG = Symbol('STORED_LOG');
