import {
  isProviderEventType,
  isTraineeEventType,
  PROVIDER_EVENT_SCHEMA_VERSIONS,
  TRAINEE_EVENT_SCHEMA_VERSIONS,
  upcast,
  type ProviderEvent,
  type RegistrationClaimed,
  type TraineeEvent,
} from '@app/domain';
import type { EventData, EventMetadata, RecordedEvent } from '@app/event-store';
import { randomUUID } from 'node:crypto';

/** Who and what caused a write; copied into every event's metadata (docs/DESIGN.md "Event envelope"). */
export interface WriteContext {
  providerUkprn?: string | null;
  apiVersion?: string | null;
  requestId?: string | null;
  causationId?: string | null;
  tokenId?: string | null;
  /** ISO 8601 instant, UTC. */
  occurredAt: string;
}

type DomainEvent = TraineeEvent | ProviderEvent | RegistrationClaimed;

const GUARD_SCHEMA_VERSIONS: Record<string, number> = { RegistrationClaimed: 1 };

function schemaVersionOf(type: string): number {
  if (isTraineeEventType(type)) return TRAINEE_EVENT_SCHEMA_VERSIONS[type];
  if (isProviderEventType(type)) return PROVIDER_EVENT_SCHEMA_VERSIONS[type];
  if (GUARD_SCHEMA_VERSIONS[type]) return GUARD_SCHEMA_VERSIONS[type];
  throw new Error(`Unknown event type ${type}`);
}

/**
 * Wraps domain events for appending: a fresh UUID per event, the current schema version and the
 * write context in the metadata.
 */
export function toEventData(events: DomainEvent[], ctx: WriteContext): EventData[] {
  return events.map((e) => {
    const metadata: EventMetadata = {
      schemaVersion: schemaVersionOf(e.type),
      occurredAt: ctx.occurredAt,
      providerUkprn: ctx.providerUkprn ?? null,
      apiVersion: ctx.apiVersion ?? null,
      requestId: ctx.requestId ?? null,
      causationId: ctx.causationId ?? null,
      tokenId: ctx.tokenId ?? null,
    };
    return { id: randomUUID(), type: e.type, data: e.data, metadata };
  });
}

/** A stored trainee event as the current domain event (upcast when stored at an older version); null for other types. */
export function decodeTraineeEvent(recorded: RecordedEvent): TraineeEvent | null {
  if (!isTraineeEventType(recorded.type)) return null;
  const current = TRAINEE_EVENT_SCHEMA_VERSIONS[recorded.type];
  const data = upcast(recorded.type, recorded.metadata?.schemaVersion ?? 1, current, recorded.data);
  return { type: recorded.type, data } as TraineeEvent;
}

/** A stored provider event as the current domain event; null for other types. */
export function decodeProviderEvent(recorded: RecordedEvent): ProviderEvent | null {
  if (!isProviderEventType(recorded.type)) return null;
  const current = PROVIDER_EVENT_SCHEMA_VERSIONS[recorded.type];
  const data = upcast(recorded.type, recorded.metadata?.schemaVersion ?? 1, current, recorded.data);
  return { type: recorded.type, data } as ProviderEvent;
}
