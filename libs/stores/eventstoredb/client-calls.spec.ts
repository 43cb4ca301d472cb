/**
 * A read past its deadline (client-calls.ts `collectWithin`) on the client stand-in, which keeps a
 * gRPC call open until it is cancelled, as client 6.2.1's `ReadStream` does (testing/client-stand-in.ts).
 */
import { EventStoreUnavailableError } from '@app/event-sourcing';
import { EventStoreDbEventStore } from './eventstoredb-event-store';
import { EventStoreDbClientStandIn } from './testing/client-stand-in';

describe('collectWithin: a read past its deadline', () => {
  it('rejects with EventStoreUnavailableError and cancels the call, not only destroys its readable', async () => {
    const client = new EventStoreDbClientStandIn();
    const store = new EventStoreDbEventStore(client.asClient(), { readDeadlineMs: 30 });
    const release = client.holdReads();
    try {
      await expect(store.readStream('trainee-1')).rejects.toBeInstanceOf(EventStoreUnavailableError);
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(client.openCalls).toBe(0);
    } finally {
      release();
      await store.close();
    }
  });
});
