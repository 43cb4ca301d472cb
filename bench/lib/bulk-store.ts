import type { EventStore } from '@app/event-sourcing';
import { fixedKeySource } from '@app/keys';
import { withPersonalData, type PersonalData } from '@app/personal-data';
import { openSqliteEventStore, sqlitePersonalData } from '@app/stores/sqlite';

/** An event store for the bench's bulk appends, and how to close it. */
export interface BulkStore {
  store: EventStore;
  close(): Promise<void>;
}

/**
 * Where the bench appends its data set: on SQLite (`sqliteDataDir`) a second connection to the log,
 * and to the data keys, without the per-commit fsync (the API reopens both files with its own
 * durable settings), sealing personal data as the API does when `personalData` is given (the data
 * dir's own keys; docs/DESIGN.md "Personal data"); elsewhere `eventStore` itself (already sealing).
 */
export function bulkStore(sqliteDataDir: string | null, eventStore: EventStore, personalData: PersonalData | null): BulkStore {
  if (!sqliteDataDir) return { store: eventStore, close: async () => undefined };
  const log = openSqliteEventStore(sqliteDataDir, { synchronous: 'normal' });
  const keys = personalData
    ? sqlitePersonalData(sqliteDataDir, fixedKeySource(personalData.keys.keyEncryptionKey), { synchronous: 'normal' })
    : null;
  return {
    store: keys ? withPersonalData(log, keys.personal) : log,
    close: async () => {
      await log.close();
      await keys?.keyStore.close();
    },
  };
}
