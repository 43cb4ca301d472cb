import { Database, makePrivateDirectory } from '@app/sqlite';
import { join } from 'node:path';
import { logPosition, type LogPosition } from '@app/event-sourcing';
import {
  forgottenPayload,
  type NewWebhookDelivery,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookEndpointRecord,
  type WebhookOutbox,
} from '@app/webhooks/delivery';
import { forgetInStateWal, openStateDatabase, STATE_FILE } from './state-file';

/** An endpoint as stored: its change types as JSON text. */
interface EndpointRow extends Omit<WebhookEndpointRecord, 'event_types' | 'status'> {
  event_types: string;
  status: string;
}

/** What {@link WebhookOutbox.ingest} takes. */
type IngestBatch = Parameters<WebhookOutbox['ingest']>[0];

/** What an abandoned delivery's `last_error` says. */
const ABANDONED_ERROR = 'endpoint disabled';

/**
 * The tables, in the state file (`state.sqlite`, {@link STATE_FILE}), apart from the read models.
 * Indexes, all but the last only over pending deliveries (delivered and abandoned ones pile up):
 * - `webhook_deliveries_pending` (position, next_attempt_at): `due` walks it in position order and
 *   stops after `limit` (a backlog of 50,000 costs ~0.15 ms a call, against ~50 ms for reading every
 *   due delivery by time and sorting them);
 * - `webhook_deliveries_due` (next_attempt_at): `nextDueAt`, one seek;
 * - `webhook_deliveries_order` (endpoint_id, trainee_id, position): the oldest-pending check of `due`
 *   (one seek per candidate) and the abandonment of an endpoint's deliveries;
 * - `webhook_deliveries_endpoint` (endpoint_id, position DESC): `deliveries(endpointId)`.
 */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS webhook_endpoints (
    endpoint_id TEXT PRIMARY KEY, ukprn TEXT NOT NULL, url TEXT NOT NULL, event_types TEXT NOT NULL, api_version TEXT NOT NULL,
    secret TEXT NOT NULL, status TEXT NOT NULL, added_position INTEGER NOT NULL, disabled_reason TEXT);
  CREATE TABLE IF NOT EXISTS webhook_deliveries (
    delivery_id TEXT PRIMARY KEY, endpoint_id TEXT NOT NULL, position INTEGER NOT NULL, trainee_id TEXT NOT NULL,
    message_id TEXT NOT NULL, payload TEXT NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
    first_attempt_at INTEGER, next_attempt_at INTEGER NOT NULL, last_attempt_at INTEGER, last_status INTEGER,
    last_error TEXT, delivered_at INTEGER);
  CREATE INDEX IF NOT EXISTS webhook_deliveries_pending ON webhook_deliveries (position, next_attempt_at) WHERE status = 'pending';
  CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
  CREATE INDEX IF NOT EXISTS webhook_deliveries_order ON webhook_deliveries (endpoint_id, trainee_id, position) WHERE status = 'pending';
  CREATE INDEX IF NOT EXISTS webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, position DESC);
  CREATE TABLE IF NOT EXISTS webhook_dispatcher (name TEXT PRIMARY KEY, position INTEGER NOT NULL);
`;

const DELIVERY_COLUMNS = `delivery_id, endpoint_id, position, trainee_id, message_id, payload, status, attempts, first_attempt_at,
  next_attempt_at, last_attempt_at, last_status, last_error, delivered_at`;

/** The statements of one connection. */
function prepareStatements(db: Database.Database) {
  return {
    checkpoint: db.prepare<[], number>(`SELECT position FROM webhook_dispatcher WHERE name = 'checkpoint'`).pluck(),
    setCheckpoint: db.prepare<[number]>(`
      INSERT INTO webhook_dispatcher (name, position) VALUES ('checkpoint', ?)
      ON CONFLICT (name) DO UPDATE SET position = MAX(position, excluded.position)`),
    endpoints: db.prepare<[], EndpointRow>(`SELECT * FROM webhook_endpoints ORDER BY added_position, endpoint_id`),
    upsertEndpoint: db.prepare<[EndpointRow]>(`
      INSERT INTO webhook_endpoints (endpoint_id, ukprn, url, event_types, api_version, secret, status, added_position, disabled_reason)
      VALUES (@endpoint_id, @ukprn, @url, @event_types, @api_version, @secret, @status, @added_position, @disabled_reason)
      ON CONFLICT (endpoint_id) DO UPDATE SET ukprn = excluded.ukprn, url = excluded.url, event_types = excluded.event_types,
        api_version = excluded.api_version, secret = excluded.secret, status = excluded.status,
        added_position = excluded.added_position, disabled_reason = excluded.disabled_reason`),
    // ON CONFLICT on the key only (not OR IGNORE, which would also drop a row breaking NOT NULL).
    insertDelivery: db.prepare<[NewWebhookDelivery]>(`
      INSERT INTO webhook_deliveries (delivery_id, endpoint_id, position, trainee_id, message_id, payload, status, next_attempt_at)
      VALUES (@delivery_id, @endpoint_id, @position, @trainee_id, @message_id, @payload, 'pending', @next_attempt_at)
      ON CONFLICT (delivery_id) DO NOTHING`),
    abandon: db.prepare<[string, string]>(
      `UPDATE webhook_deliveries SET status = 'abandoned', last_error = ? WHERE endpoint_id = ? AND status = 'pending'`,
    ),
    // Pending deliveries in position order (INDEXED BY: never a sort of every due one), each kept when
    // it is due and no pending delivery of its (endpoint, trainee) comes before it.
    due: db.prepare<[number, number], WebhookDelivery>(`
      SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d INDEXED BY webhook_deliveries_pending
      WHERE d.status = 'pending' AND d.next_attempt_at <= ?
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries o WHERE o.status = 'pending' AND o.endpoint_id = d.endpoint_id
                        AND o.trainee_id = d.trainee_id AND o.position < d.position)
      ORDER BY d.position LIMIT ?`),
    nextDueAt: db.prepare<[], number | null>(`SELECT MIN(next_attempt_at) FROM webhook_deliveries WHERE status = 'pending'`).pluck(),
    pendingCount: db.prepare<[], number>(`SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'pending'`).pluck(),
    delivered: db.prepare<[{ id: string; at: number; status: number }]>(`
      UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, first_attempt_at = COALESCE(first_attempt_at, @at),
        last_attempt_at = @at, last_status = @status, last_error = NULL, delivered_at = @at
      WHERE delivery_id = @id AND status = 'pending'`),
    failed: db.prepare<[{ id: string; at: number; status: number | null; error: string; next: number }]>(`
      UPDATE webhook_deliveries SET attempts = attempts + 1, first_attempt_at = COALESCE(first_attempt_at, @at), last_attempt_at = @at,
        last_status = @status, last_error = @error, next_attempt_at = @next
      WHERE delivery_id = @id AND status = 'pending'`),
    deliveries: db.prepare<[string, number], WebhookDelivery>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY position DESC LIMIT ?`,
    ),
  };
}

/**
 * The webhook outbox on SQLite (docs/change-feed.md "Webhooks", "How deliveries are kept"): tables
 * `webhook_endpoints`, `webhook_deliveries` and `webhook_dispatcher` (the dispatcher's checkpoint,
 * apart from the projections' checkpoints) of `<DATA_DIR>/state.sqlite`, on their own connection
 * (`openStateDatabase`): `synchronous=FULL` (an ingest or an attempt's outcome, once stored,
 * survives a crash or power loss). An ingest is one `BEGIN IMMEDIATE` transaction.
 * Times are epoch milliseconds, given by the caller. Errors of better-sqlite3 (`SQLITE_BUSY` after
 * the process's lock wait, `lockWait`, a full disk) are thrown as they come, the transaction rolled back.
 */
export class SqliteWebhookOutbox implements WebhookOutbox {
  private readonly db: Database.Database;
  private readonly stmts: ReturnType<typeof prepareStatements>;

  /** Opens (creating when needed) the tables in the SQLite file `filename` (`openStateDatabase`). */
  constructor(filename: string) {
    this.db = openStateDatabase(filename, 'FULL');
    try {
      this.db.exec(SCHEMA);
      this.stmts = prepareStatements(this.db);
    } catch (err) {
      this.db.close();
      throw err;
    }
  }

  /** Opens the tables in `<dataDir>/state.sqlite`, creating the directory when needed. */
  static open(dataDir: string): SqliteWebhookOutbox {
    makePrivateDirectory(dataDir);
    return new SqliteWebhookOutbox(join(dataDir, STATE_FILE));
  }

  /** Position of the last log event ingested; `LOG_START` before the first ingest. */
  async checkpoint(): Promise<LogPosition> {
    return logPosition(this.stmts.checkpoint.get() ?? 0);
  }

  /** Every stored endpoint, active or disabled, in the order they were added. */
  async endpoints(): Promise<WebhookEndpointRecord[]> {
    return this.stmts.endpoints.all().map((row) => ({
      ...row,
      event_types: JSON.parse(row.event_types) as string[],
      status: row.status === 'disabled' ? 'disabled' : 'active',
    }));
  }

  /**
   * Stores the batch in one `BEGIN IMMEDIATE` transaction: endpoints upserted, new deliveries
   * inserted (one already stored is kept as it is), the pending deliveries of `abandonFor`
   * abandoned (`last_error` 'endpoint disabled'; `last_attempt_at` untouched), the checkpoint moved
   * to max(stored, given).
   */
  async ingest(batch: IngestBatch): Promise<void> {
    this.db
      .transaction(() => {
        for (const e of batch.endpoints) this.stmts.upsertEndpoint.run({ ...e, event_types: JSON.stringify(e.event_types) });
        for (const d of batch.deliveries) this.stmts.insertDelivery.run(d);
        for (const id of batch.abandonFor) this.stmts.abandon.run(ABANDONED_ERROR, id);
        this.stmts.setCheckpoint.run(batch.checkpoint);
      })
      .immediate();
  }

  /** Up to `limit` pending deliveries due at `now` (ms), each the oldest pending of its (endpoint, trainee); by position. */
  async due(now: number, limit: number): Promise<WebhookDelivery[]> {
    return this.stmts.due.all(now, Math.max(0, limit));
  }

  /** The earliest `next_attempt_at` (ms) of a pending delivery; null when none is pending. */
  async nextDueAt(): Promise<number | null> {
    return this.stmts.nextDueAt.get() ?? null;
  }

  /** Pending deliveries, counted on the partial index `webhook_deliveries_due`. */
  async pendingCount(): Promise<number> {
    return this.stmts.pendingCount.get() ?? 0;
  }

  /** Records one attempt of a pending delivery; nothing when it is delivered, abandoned or unknown. */
  async recordAttempt(deliveryId: string, attempt: WebhookAttempt): Promise<void> {
    if (attempt.delivered) {
      this.stmts.delivered.run({ id: deliveryId, at: attempt.at, status: attempt.status });
      return;
    }
    this.stmts.failed.run({ id: deliveryId, at: attempt.at, status: attempt.status, error: attempt.error, next: attempt.next_attempt_at });
  }

  /** The endpoint's deliveries, newest position first, at most `limit`. */
  async deliveries(endpointId: string, limit: number): Promise<WebhookDelivery[]> {
    return this.stmts.deliveries.all(endpointId, Math.max(0, limit));
  }

  /**
   * Blanks the trainee's TRN in the payloads of its deliveries (`forgottenPayload`), zeroed in the
   * file, then truncates the WAL so no copy stays there either; throws `StateNotForgotten` when a
   * reader held the WAL past the limit (the payloads are blanked; the erasure run again truncates it).
   */
  async forgetTrainee(traineeId: string): Promise<number> {
    const held = this.db
      .prepare<[string], { delivery_id: string; payload: string }>(
        `SELECT delivery_id, payload FROM webhook_deliveries WHERE trainee_id = ?`,
      )
      .all(traineeId);
    const update = this.db.prepare<[string, string]>(`UPDATE webhook_deliveries SET payload = ? WHERE delivery_id = ?`);
    let changed = 0;
    this.db.transaction(() => {
      for (const { delivery_id, payload } of held) {
        const forgotten = forgottenPayload(payload);
        if (forgotten !== null) changed += update.run(forgotten, delivery_id).changes;
      }
    })();
    await forgetInStateWal(this.db, traineeId, 'the webhook payloads');
    return changed;
  }

  /** Closes the connection (again: nothing). */
  close(): void {
    if (this.db.open) this.db.close();
  }
}
