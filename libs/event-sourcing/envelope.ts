/** Event envelopes (docs/DESIGN.md "Event envelope"); each stream kind registers its event types' schema versions. */

/** Copied into every event's metadata. */
export interface WriteContext {
  providerUkprn?: string | null;
  apiVersion?: string | null;
  requestId?: string | null;
  causationId?: string | null;
  /** The request that began the chain of writes. */
  correlationId?: string | null;
  tokenId?: string | null;
  /** The person who caused the write: their identity provider's opaque `sub`, never a name or email; absent for a token's write. */
  userId?: string | null;
  /** ISO 8601 instant, UTC. */
  occurredAt: string;
}

export interface EnvelopeMetadata {
  schemaVersion: number;
  occurredAt: string;
  providerUkprn: string | null;
  apiVersion: string | null;
  requestId: string | null;
  causationId: string | null;
  correlationId: string | null;
  tokenId: string | null;
  /** Only when a person caused the write (`WriteContext.userId`): events written otherwise keep their bytes as before. */
  userId?: string;
  [key: string]: unknown;
}

export interface EventEnvelope {
  id: string;
  type: string;
  data: unknown;
  metadata: EnvelopeMetadata;
}

export interface StoredEvent {
  type: string;
  data: unknown;
  metadata?: { schemaVersion?: number } | null;
}

export interface TypedEvent {
  type: string;
  data: unknown;
}

const schemaVersions = new Map<string, number>();

export function registerEventSchemas(versions: Readonly<Record<string, number>>): void {
  for (const [type, version] of Object.entries(versions)) schemaVersions.set(type, version);
}

/** Wraps events for appending; `newId` makes each id (a decider holds no random source). Throws for a type no stream kind registered. */
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
      ...(ctx.userId ? { userId: ctx.userId } : {}),
    };
    return { id: newId(), type: e.type, data: e.data, metadata };
  });
}
