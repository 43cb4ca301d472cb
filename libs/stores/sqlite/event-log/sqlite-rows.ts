import {
  expectationOf,
  IdempotencyConflictError,
  logPosition,
  withoutChainKeys,
  type LogPosition,
  type EventData,
  type ExpectedRevision,
  type RecordedEvent,
  type StoredEventText,
  type StreamWrite,
} from '@app/event-sourcing';
import { eventIdText } from './packed-ids';
import { metadataObject, metadataText } from './packed-metadata';

/** Rows of the `events` table and the checks of what is appended to it (docs/DESIGN.md "The event store port"). */

const HEX64 = /^[0-9a-f]{64}$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A row of the `events` table. */
export interface EventRow {
  position: number;
  /** The text, or its packed form (./packed-ids.ts). */
  id: string | Buffer;
  stream_id: string;
  revision: number;
  type: string;
  data: string;
  /** The JSON text, or its packed form (./packed-metadata.ts). */
  metadata: string | Buffer;
}

/** An event as written to a row: id lower-cased, data and metadata as JSON text. */
export interface SerializedEvent {
  id: string;
  type: string;
  data: string;
  metadata: string;
}

/** The recorded event of a row. */
export function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: eventIdText(row.id),
    type: row.type,
    data: JSON.parse(row.data) as unknown,
    metadata: metadataObject(row.metadata) as RecordedEvent['metadata'],
    streamId: row.stream_id,
    streamRevision: row.revision,
    position: logPosition(row.position),
  };
}

/** An event to append as its row values; TypeError for an event that is not well formed. */
export function serializeEvent(event: EventData, index: number): SerializedEvent {
  if (event === null || typeof event !== 'object') throw new TypeError(`events[${index}] must be an object`);
  if (typeof event.id !== 'string' || !UUID_PATTERN.test(event.id)) {
    throw new TypeError(`events[${index}].id must be a UUID, got ${JSON.stringify(event.id)}`);
  }
  if (typeof event.type !== 'string' || event.type === '') {
    throw new TypeError(`events[${index}].type must be a non-empty string`);
  }
  const data = JSON.stringify(event.data);
  if (data === undefined) throw new TypeError(`events[${index}].data must be JSON-serialisable`);
  if (event.metadata === null || typeof event.metadata !== 'object' || Array.isArray(event.metadata)) {
    throw new TypeError(`events[${index}].metadata must be an object`);
  }
  // The chain keys are the store's own, added as the event is stored (docs/DESIGN.md "Verifiable history").
  return { id: event.id.toLowerCase(), type: event.type, data, metadata: JSON.stringify(withoutChainKeys(event.metadata)) };
}

/** TypeError unless `streamId` is a non-empty string. */
export function assertStreamId(streamId: string): void {
  if (typeof streamId !== 'string' || streamId === '') throw new TypeError('streamId must be a non-empty string');
}

/** RangeError unless `expected` is one of the port's expected revisions. */
export function assertExpectedRevision(expected: ExpectedRevision): void {
  if (expected === 'any' || expected === 'no_stream' || expected === 'stream_exists') return;
  if (typeof expected === 'number' && Number.isInteger(expected) && expected >= 0) return;
  throw new RangeError(`expectedRevision must be 'no_stream', 'stream_exists', 'any' or an integer ≥ 0, got ${String(expected)}`);
}

/** RangeError unless `value` is an integer ≥ 0. */
export function assertNonNegativeInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be an integer ≥ 0, got ${value}`);
}

/** One stream's checked, serialized write of a group-committed unit. */
export interface QueuedWrite {
  streamId: string;
  events: SerializedEvent[];
  expected: ExpectedRevision;
  /** The hash of the event at `expected` as the caller knows it (the link of the `StreamHead` it passed); absent when not known. */
  previousHash?: string;
}

/** A write checked and serialized before it is queued (throws as `SqliteEventStore.appendToStream` documents). */
export function checkedWrite({ streamId, events, options = {} }: StreamWrite): QueuedWrite {
  assertStreamId(streamId);
  const { expected, link } = expectationOf(options);
  assertExpectedRevision(expected);
  if (!Array.isArray(events)) throw new TypeError('events must be an array');
  const serialized = events.map(serializeEvent);
  const seen = new Set<string>();
  for (const event of serialized) {
    if (seen.has(event.id)) throw new IdempotencyConflictError(streamId, event.id);
    seen.add(event.id);
  }
  // A hash the caller knows saves reading the head's row; anything but a hash is ignored (the row is read).
  const known = typeof expected === 'number' && typeof link === 'string' && HEX64.test(link);
  return known ? { streamId, events: serialized, expected, previousHash: link } : { streamId, events: serialized, expected };
}

/** A row of `SELECT position, id, stream_id, revision, type, data, metadata` in raw (array) mode. */
export type RawEventRow = [
  position: number,
  id: string | Buffer,
  streamId: string,
  revision: number,
  type: string,
  data: string,
  metadata: string | Buffer,
];

/** {@link toRecordedEvent} of a raw row. */
export function rawToRecordedEvent(row: RawEventRow): RecordedEvent {
  return {
    id: eventIdText(row[1]),
    type: row[4],
    data: JSON.parse(row[5]) as unknown,
    metadata: metadataObject(row[6]) as RecordedEvent['metadata'],
    streamId: row[2],
    streamRevision: row[3],
    position: logPosition(row[0]),
  };
}

/** The stored texts of a raw row, as the hash chain reads them (`checkStreamChain`). */
export function rawToStoredText(row: RawEventRow): StoredEventText {
  return { streamId: row[2], revision: row[3], id: eventIdText(row[1]), type: row[4], data: row[5], metadata: metadataText(row[6]) };
}

/** The columns of a {@link StoredRow}. */
export const STORED_COLUMNS = 'stream_id, revision, type, data, metadata, position, id';

/** A row of `SELECT ${STORED_COLUMNS}` in raw (array) mode: what the chain's readers select. */
export type StoredRow = [
  streamId: string,
  revision: number,
  type: string,
  data: string,
  metadata: string | Buffer,
  position: number,
  id: string | Buffer,
];

/** The stored texts of a {@link StoredRow}, with its position. */
export function storedRowText(r: StoredRow): StoredEventText & { position: LogPosition } {
  return {
    streamId: r[0],
    revision: r[1],
    id: eventIdText(r[6]),
    type: r[2],
    data: r[3],
    metadata: metadataText(r[4]),
    position: logPosition(r[5]),
  };
}
