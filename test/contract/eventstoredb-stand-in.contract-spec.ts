/**
 * Runs the shared event store contract (test/contract/event-store.contract.ts) against the
 * EventStoreDB adapter on the in-process stand-in of its client and server
 * (libs/stores/eventstoredb/testing/client-stand-in.ts; docs/DESIGN.md "Testing the EventStoreDB
 * adapter without a server"). A stand-in: passing here is not passing on EventStoreDB, which
 * `npm run test:production` checks where a server can run (eventstoredb-event-store.contract-spec.ts).
 *
 * As on a server, event ids are unique per stream only (capability `eventIdsUniqueAcrossStreams: false`).
 */
import type { EventStore } from '@app/event-sourcing';
import { EventStoreDbEventStore } from '@app/stores/eventstoredb';
import { EventStoreDbClientStandIn } from '@app/stores/eventstoredb/testing/client-stand-in';
import { describeEventStoreContract } from './event-store.contract';

describeEventStoreContract(
  'EventStoreDB adapter on the client stand-in',
  async () => {
    const client = new EventStoreDbClientStandIn();
    const opened: EventStore[] = [];
    const open = async (standIn: EventStoreDbClientStandIn): Promise<EventStore> => {
      const store = new EventStoreDbEventStore(standIn.asClient(), { subscriptionBackoff: { initialMs: 5, maxMs: 20 } });
      opened.push(store);
      return store;
    };
    const store = await open(client);
    return {
      store,
      openAnother: () => open(client.anotherClient()),
      cleanup: async () => {
        for (const s of opened) await s.close();
      },
    };
  },
  { eventIdsUniqueAcrossStreams: false },
);
