/**
 * Runs the shared event store contract (test/contract/event-store.contract.ts) against the SQLite
 * adapter on a fresh temporary data directory per test (docs/DESIGN.md, "The event store port").
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EventStore } from '@app/event-sourcing';
import { openSqliteEventStore } from '@app/stores/sqlite';
import { describeEventStoreContract } from './event-store.contract';

describeEventStoreContract(
  'SqliteEventStore',
  async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'event-store-contract-'));
    const opened: EventStore[] = [];
    const open = async (): Promise<EventStore> => {
      const store = openSqliteEventStore(dataDir, { pollIntervalMs: 20 });
      opened.push(store);
      return store;
    };
    const store = await open();
    return {
      store,
      openAnother: open,
      cleanup: async () => {
        for (const s of opened) await s.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
  { eventIdsUniqueAcrossStreams: true, atomicMultiStreamAppend: true, streamsByPrefix: true },
);
