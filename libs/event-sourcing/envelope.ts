/**
 * Event envelopes: events to the envelopes an event store appends (docs/DESIGN.md "Event
 * envelope"). The shapes are structural, the same as the event store port's `EventData` and
 * `RecordedEvent`. Each kind of stream registers the schema versions of its event types
 * ({@link registerEventSchemas}) where it declares them, as it registers its upcasters.
 */

/** Who and what caused a write; copied into every event's metadata (docs/DESIGN.md "Event envelope"). */
export interface WriteContext {
  providerUkprn?: string | null;
  apiVersion?: string | null;
  requestId?: string | null;
  /** The request (or event) that caused this write; the request's id for an API write. */
  causationId?: string | null;
  /** The request that began the chain of writes this one belongs to (an API write's own request id). */
  correlationId?: string | null;
  tokenId?: string | null;
  /** ISO 8601 instant, UTC. */
  occurredAt: string;
}

/** An event's envelope metadata as appended (docs/DESIGN.md "Event envelope"). */
export interface EnvelopeMetadata {
  schemaVersion: number;
  occurredAt: string;
  providerUkprn: string | null;
  apiVersion: string | null;
  requestId: string | null;
  causationId: string | null;
  correlationId: string | null;
  tokenId: string | null;
  [key: string]: unknown;
}

/** An event ready to append: its id, type, data and metadata. */
export interface EventEnvelope {
  id: string;
  type: string;
  data: unknown;
  metadata: EnvelopeMetadata;
}

/** What the decoders read of a stored event: its type, data and the schema version it was stored at. */
export interface StoredEvent {
  type: string;
  data: unknown;
  metadata?: { schemaVersion?: number } | null;
}

/** An event as a decider returns it: its type and data. */
export interface TypedEvent {
  type: string;
  data: unknown;
}

const schemaVersions = new Map<string, number>();

/** Registers the current schema version of each event type of `versions` (type → version). */
export function registerEventSchemas(versions: Readonly<Record<string, number>>): void {
  for (const [type, version] of Object.entries(versions)) schemaVersions.set(type, version);
}

/**
 * Wraps events for appending: an id from `newId` per event (a UUID in the service; the caller
 * supplies it so a decider holds no random source), the current schema version and the write
 * context in the metadata. Throws for a type no stream kind registered.
 */
export function toEventData(events: readonly TypedEvent[], ctx: WriteContext, newId: () => string): EventEnvelope[] {
  return events.map((e) => {
    const schemaVersion = schemaVersions.get(e.type);
    if (schemaVersion === undefined) throw new Error(`Unknown event type ${e.type}`);
    const metadata: EnvelopeMetadata = {
      schemaVersion,
      occurredAt: ctx.occurredAt,
      providerUkprn: ctx.providerUkprn ?? null,
      apiVersion: ctx.apiVersion ?? null,
      requestId: ctx.requestId ?? null,
      causationId: ctx.causationId ?? null,
      correlationId: ctx.correlationId ?? null,
      tokenId: ctx.tokenId ?? null,
    };
    return { id: newId(), type: e.type, data: e.data, metadata };
  });
}
