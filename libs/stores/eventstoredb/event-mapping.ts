/**
 * Conversion between the port's events (docs/DESIGN.md "The event store port" and "Event envelope")
 * and `@eventstore/db-client` events, and validation of a batch before it is sent.
 */
import {
  jsonEvent,
  type EventData as ClientEventData,
  type JSONType,
  type Position,
  type RecordedEvent as ClientRecordedEvent,
} from '@eventstore/db-client';
import { chainEvent, EventData, EventMetadata, IdempotencyConflictError, RecordedEvent, withoutChainKeys } from '@app/event-sourcing';
import { PositionMappingError, toPortPosition, toPortRevision } from './positions';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks a stream id the adapter may write: a non-empty string not starting with `$` (EventStoreDB
 * reserves `$` for system streams, which `$all` reads skip). Throws a TypeError otherwise.
 */
export function assertWritableStreamId(streamId: string): void {
  if (typeof streamId !== 'string' || streamId === '') throw new TypeError('streamId must be a non-empty string');
  if (streamId.startsWith('$')) {
    throw new TypeError(`streamId ${JSON.stringify(streamId)} starts with '$', which EventStoreDB reserves for system streams`);
  }
}

/**
 * Validates and normalises a batch for appending, with the same rules as the SQLite adapter:
 * ids are UUIDs (lower-cased, as EventStoreDB returns them), types non-empty strings (and, here,
 * not starting with `$`), `data` JSON-serialisable, `metadata` an object. Returns copies with
 * lower-case ids. Throws a TypeError for invalid input and {@link IdempotencyConflictError} for an
 * id repeated inside the batch.
 */
export function normaliseBatch(streamId: string, events: EventData[]): EventData[] {
  if (!Array.isArray(events)) throw new TypeError('events must be an array');
  const seen = new Set<string>();
  return events.map((event, index) => {
    if (event === null || typeof event !== 'object') throw new TypeError(`events[${index}] must be an object`);
    if (typeof event.id !== 'string' || !UUID_PATTERN.test(event.id)) {
      throw new TypeError(`events[${index}].id must be a UUID, got ${JSON.stringify(event.id)}`);
    }
    if (typeof event.type !== 'string' || event.type === '') {
      throw new TypeError(`events[${index}].type must be a non-empty string`);
    }
    if (event.type.startsWith('$')) {
      throw new TypeError(`events[${index}].type starts with '$', which EventStoreDB reserves for system events`);
    }
    let serialized: string | undefined;
    try {
      serialized = JSON.stringify(event.data);
    } catch (error) {
      throw new TypeError(`events[${index}].data must be JSON-serialisable: ${(error as Error).message}`);
    }
    if (serialized === undefined) throw new TypeError(`events[${index}].data must be JSON-serialisable`);
    if (event.metadata === null || typeof event.metadata !== 'object' || Array.isArray(event.metadata)) {
      throw new TypeError(`events[${index}].metadata must be an object`);
    }
    try {
      JSON.stringify(event.metadata);
    } catch (error) {
      throw new TypeError(`events[${index}].metadata must be JSON-serialisable: ${(error as Error).message}`);
    }
    const id = event.id.toLowerCase();
    if (seen.has(id)) throw new IdempotencyConflictError(streamId, id);
    seen.add(id);
    return { id, type: event.type, data: event.data, metadata: event.metadata };
  });
}

/**
 * The client events for a (normalised) batch appended after `head`, chained (docs/DESIGN.md
 * "Verifiable history"): each one's metadata, sent as the exact bytes of its JSON text, ends with
 * the chain keys (`chainEvent`: version 2, over the event's id too), computed over `data` as the client
 * serialises it (`JSON.stringify`). Chain keys the caller put in the metadata are dropped.
 */
export function toChainedClientEvents(
  streamId: string,
  head: { revision: number | null; hash: string | null },
  batch: EventData[],
): ClientEventData[] {
  let previous = head.hash;
  let revision = head.revision ?? -1;
  const encoder = new TextEncoder();
  return batch.map((event) => {
    revision += 1;
    const chained = chainEvent(previous, {
      streamId,
      revision,
      id: event.id,
      type: event.type,
      data: JSON.stringify(event.data),
      metadata: JSON.stringify(withoutChainKeys(event.metadata)),
    });
    previous = chained.hash;
    // A plain Uint8Array (not a Buffer): the client sends those bytes as they are, and JSON.stringify-s anything else.
    return jsonEvent({ id: event.id, type: event.type, data: event.data as JSONType, metadata: encoder.encode(chained.metadata) });
  });
}

/**
 * The port event for an event the client read. `position` is the event's `$all` position (from the
 * event itself; stream reads report it from server 22.6 on). Throws {@link PositionMappingError}
 * when there is no position or it cannot be mapped (see positions.ts).
 *
 * Events written by this adapter are JSON with JSON object metadata and map back exactly. Events
 * other writers put in the same database are passed through as the client decoded them (binary
 * data as bytes, missing or non-JSON metadata as `{}`).
 */
export function fromClientEvent(event: ClientRecordedEvent, position: Position | undefined = event.position): RecordedEvent {
  if (position === undefined) {
    throw new PositionMappingError(
      `event ${event.id} of ${event.streamId} was read without a position (EventStoreDB 22.6 or later is required)`,
    );
  }
  return {
    id: event.id.toLowerCase(),
    type: event.type,
    data: event.data,
    metadata: toMetadata(event.metadata),
    streamId: event.streamId,
    streamRevision: toPortRevision(event.revision),
    position: toPortPosition(position),
  };
}

function toMetadata(metadata: unknown): EventMetadata {
  let value = metadata;
  if (value instanceof Uint8Array) {
    try {
      value = JSON.parse(Buffer.from(value).toString('utf8')) as unknown;
    } catch {
      value = undefined;
    }
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as EventMetadata;
  return {} as EventMetadata;
}
