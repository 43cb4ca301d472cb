/**
 * `MongoWebhookOutbox.ingest`'s abandonment over a driver double (no MongoDB server): a `webhook_deliveries` collection whose
 * `updateMany` abandons the pending deliveries of the endpoints named, and whose first one is interrupted by a step-down after it had
 * abandoned one of them (11602: a multi-document write is not atomic; ./testing/driver-faults.ts). The outbox on a server is the
 * webhook outbox contract's (test/contract/mongodb-webhook-outbox.contract-spec.ts, run when MONGODB_URL is set).
 */
import type { Db } from 'mongodb';
import { logPosition } from '@app/event-sourcing';
import { MongoWebhookOutbox } from './mongo-webhook-outbox';
import { INTERRUPTED_DUE_TO_REPL_STATE_CHANGE, steppedDown } from './testing/driver-faults';

interface Delivery {
  _id: string;
  endpoint_id: string;
  status: string;
  last_error: string | null;
}

function databaseDouble() {
  const deliveries = new Map<string, Delivery>();
  let checkpoint = 0;
  let interruptions = 1;
  const updateMany = jest.fn(async (filter: { endpoint_id: { $in: string[] }; status: string }, update: { $set: Partial<Delivery> }) => {
    let modifiedCount = 0;
    for (const d of deliveries.values()) {
      if (!filter.endpoint_id.$in.includes(d.endpoint_id) || d.status !== filter.status) continue;
      Object.assign(d, update.$set);
      modifiedCount++;
      if (interruptions > 0) {
        interruptions--;
        throw steppedDown(INTERRUPTED_DUE_TO_REPL_STATE_CHANGE);
      }
    }
    return { matchedCount: modifiedCount, modifiedCount };
  });
  const collections: Record<string, object> = {
    webhook_deliveries: { updateMany },
    webhook_dispatcher: {
      updateOne: async (_filter: unknown, update: { $max: { position: number } }) => {
        checkpoint = Math.max(checkpoint, update.$max.position);
        return { modifiedCount: 1 };
      },
    },
    webhook_endpoints: {},
  };
  const db = { collection: (name: string) => collections[name] } as unknown as Db;
  return { db, deliveries, updateMany, checkpoint: () => checkpoint };
}

describe('MongoWebhookOutbox.ingest abandonment (driver double)', () => {
  it('sends the abandonment again after a step-down interrupted it part way, abandoning the rest, then moves the checkpoint', async () => {
    const { db, deliveries, updateMany, checkpoint } = databaseDouble();
    for (const [id, endpoint] of [
      ['d1', 'E1'],
      ['d2', 'E1'],
      ['d3', 'E2'],
      ['d4', 'E1'],
    ])
      deliveries.set(id, { _id: id, endpoint_id: endpoint, status: 'pending', last_error: null });
    const outbox = new MongoWebhookOutbox(db);
    const batch = { endpoints: [], deliveries: [], abandonFor: ['E1'], at: 1_000, checkpoint: logPosition(42) };
    await outbox.ingest(batch);
    expect(updateMany).toHaveBeenCalledTimes(2);
    const statuses = () => [...deliveries.values()].map((d) => [d._id, d.status]);
    const after = [
      ['d1', 'abandoned'],
      ['d2', 'abandoned'],
      ['d3', 'pending'],
      ['d4', 'abandoned'],
    ];
    expect(statuses()).toEqual(after);
    expect(checkpoint()).toBe(42);
    // Run again (a crash before the checkpoint): the same deliveries, the same checkpoint.
    await outbox.ingest(batch);
    expect(statuses()).toEqual(after);
    expect(checkpoint()).toBe(42);
  });
});
