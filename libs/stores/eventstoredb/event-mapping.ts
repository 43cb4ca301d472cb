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

/** TypeError unless a non-empty string not starting with `$`, which EventStoreDB reserves for system streams. */
export function assertWritableStreamId(streamId: string): void {
  if (typeof streamId !== 'string' || streamId === '') throw new TypeError('streamId must be a non-empty string');
  if (streamId.startsWith('$')) {
    throw new TypeError(`streamId ${JSON.stringify(streamId)} starts with '$', which EventStoreDB reserves for system streams`);
  }
}

/**
 * Checked as on SQLite: ids UUIDs, lower-cased as EventStoreDB returns them; types non-empty (and not `$`-prefixed here); `data`
 * JSON-serialisable; `metadata` an object. TypeError, or {@link IdempotencyConflictError} for an id repeated in the batch.
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
 * Chained after `head` (docs/DESIGN.md "Verifiable history"): metadata sent as the exact bytes of its JSON text, ending with the chain
 * keys computed over `data` as the client serialises it; chain keys the caller put there are dropped.
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
 * `position` the event's `$all` position (stream reads carry it from server 22.6 on); {@link PositionMappingError} when none or
 * unmappable. Other writers' events pass as the client decoded them (binary data as bytes, non-JSON metadata as `{}`).
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
