import { type StoredEvent, upcast } from '@app/event-sourcing';
import './trainee.upcasters';
import { isTraineeEventType, TRAINEE_EVENT_SCHEMA_VERSIONS, type TraineeEvent } from './trainee.events';

/** A stored trainee event, upcast to the current schema (docs/DESIGN.md "Event envelope"); null for other types. */
export function decodeTraineeEvent(stored: StoredEvent): TraineeEvent | null {
  if (!isTraineeEventType(stored.type)) return null;
  const current = TRAINEE_EVENT_SCHEMA_VERSIONS[stored.type];
  const data = upcast(stored.type, stored.metadata?.schemaVersion ?? 1, current, stored.data);
  return { type: stored.type, data } as TraineeEvent;
}
