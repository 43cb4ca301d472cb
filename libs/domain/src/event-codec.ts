import { isProviderEventType, PROVIDER_EVENT_SCHEMA_VERSIONS, type ProviderEvent } from './provider/provider';
import type { RegistrationClaimed } from './trainee/trainee.duplicates';
import { isTraineeEventType, TRAINEE_EVENT_SCHEMA_VERSIONS, type TraineeEvent } from './trainee/trainee.events';
import { isWebhookEventType, WEBHOOK_EVENT_SCHEMA_VERSIONS, type WebhookEvent } from './webhook/webhook';
import { upcast } from './upcasters';

/**
 * The event codec: domain events to the envelopes an event store appends, and stored envelopes back
 * to current domain events (docs/DESIGN.md "Event envelope"). The shapes are structural, the same
 * as the event store port's `EventData` and `RecordedEvent`, so the domain imports no other library.
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

/** Every event the domain appends: a trainee's, a provider's, a webhook endpoint's, or a registration claim. */
export type DomainEvent = TraineeEvent | ProviderEvent | WebhookEvent | RegistrationClaimed;

const GUARD_SCHEMA_VERSIONS: Record<string, number> = { RegistrationClaimed: 1 };

function schemaVersionOf(type: string): number {
  if (isTraineeEventType(type)) return TRAINEE_EVENT_SCHEMA_VERSIONS[type];
  if (isProviderEventType(type)) return PROVIDER_EVENT_SCHEMA_VERSIONS[type];
  if (isWebhookEventType(type)) return WEBHOOK_EVENT_SCHEMA_VERSIONS[type];
  if (GUARD_SCHEMA_VERSIONS[type]) return GUARD_SCHEMA_VERSIONS[type];
  throw new Error(`Unknown event type ${type}`);
}

/**
 * Wraps domain events for appending: an id from `newId` per event (a UUID in the service; the
 * caller supplies it so the domain holds no random source), the current schema version and the
 * write context in the metadata. Throws for a type the domain does not know.
 */
export function toEventData(events: readonly DomainEvent[], ctx: WriteContext, newId: () => string): EventEnvelope[] {
  return events.map((e) => {
    const metadata: EnvelopeMetadata = {
      schemaVersion: schemaVersionOf(e.type),
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

/**
 * A stored trainee event as the current domain event (upcast when stored at an older schema
 * version, docs/DESIGN.md "Event envelope"); null for other types.
 */
export function decodeTraineeEvent(stored: StoredEvent): TraineeEvent | null {
  if (!isTraineeEventType(stored.type)) return null;
  const current = TRAINEE_EVENT_SCHEMA_VERSIONS[stored.type];
  const data = upcast(stored.type, stored.metadata?.schemaVersion ?? 1, current, stored.data);
  return { type: stored.type, data } as TraineeEvent;
}

/** A stored provider event as the current domain event; null for other types. */
export function decodeProviderEvent(stored: StoredEvent): ProviderEvent | null {
  if (!isProviderEventType(stored.type)) return null;
  const current = PROVIDER_EVENT_SCHEMA_VERSIONS[stored.type];
  const data = upcast(stored.type, stored.metadata?.schemaVersion ?? 1, current, stored.data);
  return { type: stored.type, data } as ProviderEvent;
}
