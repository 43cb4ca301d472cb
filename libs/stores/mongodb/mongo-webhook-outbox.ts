import type { AnyBulkWriteOperation, Collection, Db } from 'mongodb';
import { logPosition, type LogPosition } from '@app/event-sourcing';
import { retryMultiWrite } from './mongo-connection';
import {
  forgottenPayload,
  type NewWebhookDelivery,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookEndpointRecord,
  type WebhookOutbox,
} from '@app/webhooks/delivery';

type EndpointDocument = WebhookEndpointRecord & { _id: string };
type DeliveryDocument = WebhookDelivery & { _id: string };
type CheckpointDocument = { _id: string; position: number };

type IngestBatch = Parameters<WebhookOutbox['ingest']>[0];

/** The outbox's collections (docs/change-feed.md "Webhooks"): in the read store's database, outside the versioned projection ones. */
export const WEBHOOK_COLLECTIONS = {
  endpoints: 'webhook_endpoints',
  deliveries: 'webhook_deliveries',
  dispatcher: 'webhook_dispatcher',
} as const;

const ABANDONED_ERROR = 'endpoint disabled';

/** Checked per round trip of `due` (at least `limit`). */
const DUE_CHUNK = 128;

const PENDING = { partialFilterExpression: { status: 'pending' } };

/** {@link MongoWebhookOutbox.ensureIndexes} says which serves what. */
export const WEBHOOK_DELIVERY_INDEXES: ReadonlyArray<{
  key: Record<string, 1 | -1>;
  name: string;
  partialFilterExpression?: Record<string, unknown>;
}> = [
  { key: { position: 1, next_attempt_at: 1 }, name: 'pending_by_position', ...PENDING },
  { key: { next_attempt_at: 1 }, name: 'pending_by_next_attempt', ...PENDING },
  { key: { status: 1 }, name: 'pending_count', ...PENDING },
  { key: { endpoint_id: 1, trainee_id: 1, position: 1 }, name: 'pending_by_trainee', ...PENDING },
  { key: { endpoint_id: 1, position: -1 }, name: 'by_endpoint' },
  { key: { trainee_id: 1 }, name: 'by_trainee' },
];

/**
 * The webhook outbox on MongoDB (docs/change-feed.md "How deliveries are kept"): `webhook_endpoints`, `webhook_deliveries` and
 * `webhook_dispatcher` (the checkpoint). An ingest writes endpoints, deliveries (`$setOnInsert`: one there is kept), abandonments,
 * then the checkpoint (`$max`), each idempotent, so after a crash the next ingest repeats them harmlessly. `due` reads due deliveries
 * by position in chunks, keeping a candidate only when no pending delivery of its (endpoint, trainee) is older (one aggregation per
 * chunk for each pair's first), and stops at `limit`: a backlog costs a chunk or two. Times are epoch ms; driver errors thrown.
 */
export class MongoWebhookOutbox implements WebhookOutbox {
  private readonly endpointsCollection: Collection<EndpointDocument>;
  private readonly deliveriesCollection: Collection<DeliveryDocument>;
  private readonly dispatcher: Collection<CheckpointDocument>;

  /** The caller keeps and closes `db`'s client. */
  constructor(db: Db) {
    this.endpointsCollection = db.collection<EndpointDocument>(WEBHOOK_COLLECTIONS.endpoints);
    this.deliveriesCollection = db.collection<DeliveryDocument>(WEBHOOK_COLLECTIONS.deliveries);
    this.dispatcher = db.collection<CheckpointDocument>(WEBHOOK_COLLECTIONS.dispatcher);
  }

  /**
   * Idempotent; call at start. Pending only: (position, next_attempt_at) for `due`; (next_attempt_at) for `nextDueAt`; (status) for
   * `pendingCount` (a partial filter alone serves no count); (endpoint_id, trainee_id, position) for the oldest-pending check and
   * abandonment. All: (endpoint_id, position desc) for `deliveries`; (trainee_id) for `forgetTrainee`.
   */
  async ensureIndexes(): Promise<void> {
    await this.deliveriesCollection.createIndexes(WEBHOOK_DELIVERY_INDEXES.map((index) => ({ ...index })));
  }

  /** `LOG_START` before the first ingest. */
  async checkpoint(): Promise<LogPosition> {
    return logPosition((await this.dispatcher.findOne({ _id: 'checkpoint' }))?.position ?? 0);
  }

  /** Active or disabled, in the order added. */
  async endpoints(): Promise<WebhookEndpointRecord[]> {
    const docs = await this.endpointsCollection.find({}).sort({ added_position: 1, _id: 1 }).toArray();
    return docs.map(({ _id, ...record }) => record);
  }

  /** Endpoints, deliveries, abandonments, then the checkpoint. */
  async ingest(batch: IngestBatch): Promise<void> {
    const options = { ordered: false };
    if (batch.endpoints.length > 0) {
      const ops = batch.endpoints.map((e): AnyBulkWriteOperation<EndpointDocument> => ({
        replaceOne: { filter: { _id: e.endpoint_id }, replacement: { ...e }, upsert: true },
      }));
      await this.endpointsCollection.bulkWrite(ops, options);
    }
    if (batch.deliveries.length > 0) {
      const ops = batch.deliveries.map((d): AnyBulkWriteOperation<DeliveryDocument> => ({
        updateOne: { filter: { _id: d.delivery_id }, update: { $setOnInsert: pendingDelivery(d) }, upsert: true },
      }));
      await this.deliveriesCollection.bulkWrite(ops, options);
    }
    if (batch.abandonFor.length > 0) {
      // Matches only what is still pending, so sent again after a step-down that interrupted it part way it finishes the rest.
      await retryMultiWrite(() =>
        this.deliveriesCollection.updateMany(
          { endpoint_id: { $in: batch.abandonFor }, status: 'pending' },
          { $set: { status: 'abandoned', last_error: ABANDONED_ERROR } },
        ),
      );
    }
    await this.dispatcher.updateOne({ _id: 'checkpoint' }, { $max: { position: batch.checkpoint } }, { upsert: true });
  }

  /** Up to `limit` pending deliveries due at `now` (ms), each the oldest pending of its (endpoint, trainee); by position. */
  async due(now: number, limit: number): Promise<WebhookDelivery[]> {
    if (limit <= 0) return [];
    const chunkSize = Math.max(limit, DUE_CHUNK);
    const cursor = this.deliveriesCollection
      .find({ status: 'pending', next_attempt_at: { $lte: now } })
      .sort({ position: 1 })
      .batchSize(chunkSize);
    const met = new Set<string>();
    const picked: DeliveryDocument[] = [];
    try {
      let chunk: DeliveryDocument[] = [];
      while (picked.length < limit) {
        const next = await cursor.next();
        if (next) chunk.push(next);
        if (chunk.length === chunkSize || (!next && chunk.length > 0)) {
          picked.push(...(await this.oldestOfTheirTrainee(chunk, met)));
          chunk = [];
        }
        if (!next) break;
      }
    } finally {
      await cursor.close();
    }
    return picked.slice(0, limit).map(({ _id, ...delivery }) => delivery);
  }

  /** The oldest pending of their (endpoint, trainee): a pair's first not `met` before, with no older pending one. Adds to `met`. */
  private async oldestOfTheirTrainee(chunk: DeliveryDocument[], met: Set<string>): Promise<DeliveryDocument[]> {
    const first = new Map<string, DeliveryDocument>();
    for (const c of chunk) {
      const pair = pairKey(c.endpoint_id, c.trainee_id);
      if (!met.has(pair) && !first.has(pair)) first.set(pair, c);
    }
    for (const pair of first.keys()) met.add(pair);
    if (first.size === 0) return [];
    const older = await this.deliveriesCollection
      .aggregate<{ _id: { endpoint_id: string; trainee_id: string } }>([
        {
          $match: {
            $or: [...first.values()].map((c) => ({
              status: 'pending',
              endpoint_id: c.endpoint_id,
              trainee_id: c.trainee_id,
              position: { $lt: c.position },
            })),
          },
        },
        { $group: { _id: { endpoint_id: '$endpoint_id', trainee_id: '$trainee_id' } } },
      ])
      .toArray();
    const blocked = new Set(older.map((o) => pairKey(o._id.endpoint_id, o._id.trainee_id)));
    return [...first.entries()].filter(([pair]) => !blocked.has(pair)).map(([, c]) => c);
  }

  /** On the partial index `pending_count` (its key is `status`). */
  async pendingCount(): Promise<number> {
    return this.deliveriesCollection.countDocuments({ status: 'pending' });
  }

  /** Null when none is pending. */
  async nextDueAt(): Promise<number | null> {
    const [next] = await this.deliveriesCollection
      .find({ status: 'pending' }, { projection: { _id: 0, next_attempt_at: 1 } })
      .sort({ next_attempt_at: 1 })
      .limit(1)
      .toArray();
    return next?.next_attempt_at ?? null;
  }

  /** One update of a pending delivery (`first_attempt_at` kept); values as `$literal`, so error text starting with `$` is no field path. */
  async recordAttempt(deliveryId: string, attempt: WebhookAttempt): Promise<void> {
    const outcome: Partial<WebhookDelivery> = attempt.delivered
      ? { status: 'delivered', last_status: attempt.status, last_error: null, delivered_at: attempt.at }
      : { last_status: attempt.status, last_error: attempt.error, next_attempt_at: attempt.next_attempt_at };
    const set: Record<string, unknown> = { last_attempt_at: { $literal: attempt.at } };
    for (const [field, value] of Object.entries(outcome)) set[field] = { $literal: value };
    set.attempts = { $add: ['$attempts', 1] };
    set.first_attempt_at = { $ifNull: ['$first_attempt_at', { $literal: attempt.at }] };
    await this.deliveriesCollection.updateOne({ _id: deliveryId, status: 'pending' }, [{ $set: set }]);
  }

  /** `WebhookOutbox.resetTo`: endpoints not held removed, the rest replaced; later deliveries deleted; the checkpoint set. */
  async resetTo(reset: { checkpoint: LogPosition; endpoints: WebhookEndpointRecord[] }): Promise<number> {
    const held = reset.endpoints.map((e) => e.endpoint_id);
    await retryMultiWrite(() => this.endpointsCollection.deleteMany({ _id: { $nin: held } }));
    if (reset.endpoints.length > 0) {
      const ops = reset.endpoints.map((e): AnyBulkWriteOperation<EndpointDocument> => ({
        replaceOne: { filter: { _id: e.endpoint_id }, replacement: { ...e }, upsert: true },
      }));
      await this.endpointsCollection.bulkWrite(ops, { ordered: false });
    }
    // A delivery a failed attempt deleted is not counted: the count is the last attempt's.
    const { deletedCount } = await retryMultiWrite(() => this.deliveriesCollection.deleteMany({ position: { $gt: reset.checkpoint } }));
    await this.dispatcher.updateOne({ _id: 'checkpoint' }, { $set: { position: reset.checkpoint } }, { upsert: true });
    return deletedCount;
  }

  /** `WebhookOutbox.forgetTrainee`, on the index `by_trainee`: changes kept as the feed keeps them (`forgottenPayload`). */
  async forgetTrainee(traineeId: string): Promise<number> {
    const held = await this.deliveriesCollection.find({ trainee_id: traineeId }, { projection: { payload: 1 } }).toArray();
    const writes = held.flatMap((d) => {
      const forgotten = forgottenPayload(d.payload);
      return forgotten === null ? [] : [{ updateOne: { filter: { _id: d._id }, update: { $set: { payload: forgotten } } } }];
    });
    if (writes.length > 0) await this.deliveriesCollection.bulkWrite(writes);
    return writes.length;
  }

  /** Newest position first. */
  async deliveries(endpointId: string, limit: number): Promise<WebhookDelivery[]> {
    if (limit <= 0) return [];
    const docs = await this.deliveriesCollection.find({ endpoint_id: endpointId }).sort({ position: -1 }).limit(limit).toArray();
    return docs.map(({ _id, ...delivery }) => delivery);
  }

  /** Nothing: the client belongs to the read store, which closes it. */
  close(): void {}
}

function pendingDelivery(d: NewWebhookDelivery): WebhookDelivery {
  return {
    delivery_id: d.delivery_id,
    endpoint_id: d.endpoint_id,
    position: d.position,
    trainee_id: d.trainee_id,
    message_id: d.message_id,
    payload: d.payload,
    next_attempt_at: d.next_attempt_at,
    status: 'pending',
    attempts: 0,
    first_attempt_at: null,
    last_attempt_at: null,
    last_status: null,
    last_error: null,
    delivered_at: null,
  };
}

/** JSON: no separator can collide. */
function pairKey(endpointId: string, traineeId: string): string {
  return JSON.stringify([endpointId, traineeId]);
}
