import type { Collection, Db } from 'mongodb';
import { WRITE_CONCERN } from '../mongodb/mongo-connection';
import type { NewWebhookDelivery, WebhookAttempt, WebhookDelivery, WebhookEndpointRecord, WebhookOutbox } from './webhook-outbox.port';

type EndpointDocument = WebhookEndpointRecord & { _id: string };
type DeliveryDocument = WebhookDelivery & { _id: string };

/** How many due candidates one `due` call reads for each delivery it may return. */
const CANDIDATES_PER_RESULT = 4;

/**
 * The webhook outbox on MongoDB (docs/change-feed.md "How deliveries are kept"): collections
 * `webhook_endpoints`, `webhook_deliveries` (`_id` = delivery_id) and `webhook_dispatcher` (the
 * checkpoint) in the read store's database, majority writes. An ingest writes endpoints, then
 * deliveries (`$setOnInsert`: one already there is kept), then the abandonments, then the
 * checkpoint (`$max`): each step is idempotent, so a crash between them is repaired by the next
 * ingest from the old checkpoint. `due` reads due pending deliveries by position and drops those
 * with an older pending delivery of the same (endpoint, trainee), with one more query over the
 * candidates' pairs.
 */
export class MongoWebhookOutbox implements WebhookOutbox {
  private readonly endpointsCollection: Collection<EndpointDocument>;
  private readonly deliveriesCollection: Collection<DeliveryDocument>;
  private readonly dispatcher: Collection<{ _id: string; position: number }>;

  constructor(db: Db) {
    this.endpointsCollection = db.collection<EndpointDocument>('webhook_endpoints');
    this.deliveriesCollection = db.collection<DeliveryDocument>('webhook_deliveries');
    this.dispatcher = db.collection<{ _id: string; position: number }>('webhook_dispatcher');
  }

  /** Creates the indexes `due`, the ordering check and `deliveries` use. */
  async ensureIndexes(): Promise<void> {
    await this.deliveriesCollection.createIndexes([
      { key: { status: 1, next_attempt_at: 1 }, name: 'due' },
      { key: { status: 1, endpoint_id: 1, trainee_id: 1, position: 1 }, name: 'order' },
      { key: { endpoint_id: 1, position: -1 }, name: 'by_endpoint' },
    ]);
  }

  async checkpoint(): Promise<number> {
    return (await this.dispatcher.findOne({ _id: 'checkpoint' }))?.position ?? 0;
  }

  async endpoints(): Promise<WebhookEndpointRecord[]> {
    const rows = await this.endpointsCollection.find({}).sort({ added_position: 1 }).toArray();
    return rows.map(({ _id, ...record }) => record);
  }

  async ingest(batch: Parameters<WebhookOutbox['ingest']>[0]): Promise<void> {
    const options = { ordered: false, writeConcern: WRITE_CONCERN };
    if (batch.endpoints.length > 0) {
      await this.endpointsCollection.bulkWrite(
        batch.endpoints.map((e) => ({
          replaceOne: { filter: { _id: e.endpoint_id }, replacement: { _id: e.endpoint_id, ...e }, upsert: true },
        })),
        options,
      );
    }
    if (batch.deliveries.length > 0) {
      await this.deliveriesCollection.bulkWrite(
        batch.deliveries.map((d: NewWebhookDelivery) => ({
          updateOne: {
            filter: { _id: d.delivery_id },
            update: {
              $setOnInsert: {
                ...d,
                status: 'pending' as const,
                attempts: 0,
                first_attempt_at: null,
                last_attempt_at: null,
                last_status: null,
                last_error: null,
                delivered_at: null,
              },
            },
            upsert: true,
          },
        })),
        options,
      );
    }
    if (batch.abandonFor.length > 0) {
      await this.deliveriesCollection.updateMany(
        { endpoint_id: { $in: batch.abandonFor }, status: 'pending' },
        { $set: { status: 'abandoned', last_error: 'endpoint disabled' } },
        { writeConcern: WRITE_CONCERN },
      );
    }
    await this.dispatcher.updateOne(
      { _id: 'checkpoint' },
      { $max: { position: batch.checkpoint } },
      { upsert: true, writeConcern: WRITE_CONCERN },
    );
  }

  async due(now: number, limit: number): Promise<WebhookDelivery[]> {
    const candidates = await this.deliveriesCollection
      .find({ status: 'pending', next_attempt_at: { $lte: now } })
      .sort({ position: 1 })
      .limit(limit * CANDIDATES_PER_RESULT)
      .toArray();
    if (candidates.length === 0) return [];
    // The oldest pending position of each candidate's (endpoint, trainee).
    const oldest = await this.deliveriesCollection
      .aggregate<{ _id: { endpoint_id: string; trainee_id: string }; position: number }>([
        { $match: { status: 'pending', $or: candidates.map((c) => ({ endpoint_id: c.endpoint_id, trainee_id: c.trainee_id })) } },
        { $group: { _id: { endpoint_id: '$endpoint_id', trainee_id: '$trainee_id' }, position: { $min: '$position' } } },
      ])
      .toArray();
    const first = new Map(oldest.map((o) => [`${o._id.endpoint_id} ${o._id.trainee_id}`, o.position]));
    return candidates
      .filter((c) => first.get(`${c.endpoint_id} ${c.trainee_id}`) === c.position)
      .slice(0, limit)
      .map(({ _id, ...delivery }) => delivery);
  }

  async nextDueAt(): Promise<number | null> {
    const next = await this.deliveriesCollection.find({ status: 'pending' }).sort({ next_attempt_at: 1 }).limit(1).toArray();
    return next[0]?.next_attempt_at ?? null;
  }

  async recordAttempt(deliveryId: string, attempt: WebhookAttempt): Promise<void> {
    const common = { attempts: 1 };
    const set = attempt.delivered
      ? {
          status: 'delivered' as const,
          last_attempt_at: attempt.at,
          last_status: attempt.status,
          last_error: null,
          delivered_at: attempt.at,
        }
      : { last_attempt_at: attempt.at, last_status: attempt.status, last_error: attempt.error, next_attempt_at: attempt.next_attempt_at };
    await this.deliveriesCollection.updateOne(
      { _id: deliveryId, status: 'pending' },
      [
        {
          $set: {
            ...set,
            attempts: { $add: ['$attempts', common.attempts] },
            first_attempt_at: { $ifNull: ['$first_attempt_at', attempt.at] },
          },
        },
      ],
      { writeConcern: WRITE_CONCERN },
    );
  }

  async deliveries(endpointId: string, limit: number): Promise<WebhookDelivery[]> {
    const rows = await this.deliveriesCollection.find({ endpoint_id: endpointId }).sort({ position: -1 }).limit(limit).toArray();
    return rows.map(({ _id, ...delivery }) => delivery);
  }

  /** The client belongs to the read store, which closes it. */
  close(): void {}
}
