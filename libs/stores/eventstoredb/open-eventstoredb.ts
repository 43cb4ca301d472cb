import { EventStoreDBClient } from '@eventstore/db-client';
import { EventStoreDbEventStore, type EventStoreDbEventStoreOptions } from './eventstoredb-event-store';

const ignore = (): void => undefined;

/**
 * `esdb://` or `esdb+discover://` (docs/operations.md "Configuration"), else an Error naming only the scheme given, never credentials;
 * an Error too for `throwOnAppendFailure=false`.
 */
export function assertEventStoreDbUrl(url: string): void {
  const trimmed = typeof url === 'string' ? url.trim() : '';
  if (trimmed.startsWith('esdb://') || trimmed.startsWith('esdb+discover://')) {
    // With it false a refused append does not throw and reports the wrong actual revision: refused.
    if (/[?&]throwOnAppendFailure=false(&|$)/i.test(trimmed)) {
      throw new Error('EVENTSTORE_URL must not set throwOnAppendFailure=false: the adapter relies on refused appends throwing');
    }
    return;
  }
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(trimmed)?.[1];
  throw new Error(
    'EVENTSTORE_URL must be an EventStoreDB connection string starting with esdb:// or esdb+discover:// ' +
      `(for example esdb://localhost:2113?tls=false), got ${scheme === undefined ? 'no scheme' : `"${scheme}://…"`}`,
  );
}

/** Connects lazily, at the first call. Error for a URL of another scheme or one the client cannot parse; RangeError for bad `options`. */
export function openEventStoreDb(url: string, options: EventStoreDbEventStoreOptions = {}): EventStoreDbEventStore {
  assertEventStoreDbUrl(url);
  let client: EventStoreDBClient;
  try {
    client = EventStoreDBClient.connectionString(url.trim());
  } catch (error) {
    throw new Error(`EVENTSTORE_URL is not a valid EventStoreDB connection string: ${(error as Error).message}`, {
      cause: error,
    });
  }
  try {
    return new EventStoreDbEventStore(client, { newClient: () => EventStoreDBClient.connectionString(url.trim()), ...options });
  } catch (error) {
    client.dispose().catch(ignore);
    throw error;
  }
}
