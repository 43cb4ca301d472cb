import { type StoredEvent, upcast } from '@app/event-sourcing';
import './provider.upcasters';
import { isProviderEventType, PROVIDER_EVENT_SCHEMA_VERSIONS, type ProviderEvent } from './provider';

/** Upcast where stored at an older schema version; null for other types. */
export function decodeProviderEvent(stored: StoredEvent): ProviderEvent | null {
  if (!isProviderEventType(stored.type)) return null;
  const current = PROVIDER_EVENT_SCHEMA_VERSIONS[stored.type];
  const data = upcast(stored.type, stored.metadata?.schemaVersion ?? 1, current, stored.data);
  return { type: stored.type, data } as ProviderEvent;
}
