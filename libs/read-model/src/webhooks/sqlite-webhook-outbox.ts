import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { NewWebhookDelivery, WebhookAttempt, WebhookDelivery, WebhookEndpointRecord, WebhookOutbox } from './webhook-outbox.port';

interface EndpointRow extends Omit<WebhookEndpointRecord, 'event_types' | 'status'> {
  event_types: string;
  status: string;
}

const DELIVERY_COLUMNS = `delivery_id, endpoint_id, position, trainee_id, message_id, payload, status, attempts, first_attempt_at,
  next_attempt_at, last_attempt_at, last_status, last_error, delivered_at`;

/**
 * The webhook outbox on SQLite (docs/change-feed.md "How deliveries are kept"): tables
 * `webhook_endpoints`, `webhook_deliveries` and `webhook_dispatcher` (the checkpoint) of
 * `<DATA_DIR>/read-models.sqlite`, on their own connection with `synchronous=FULL` (an attempt's
 * outcome, once recorded, survives a crash), outside the versioned projection tables. An ingest is
 * one `BEGIN IMMEDIATE` transaction. Times are epoch milliseconds.
 */
export class SqliteWebhookOutbox implements WebhookOutbox {
  private readonly db: Database.Database;
  private readonly stmts;

  constructor(filename: string) {
    this.db = new Database(filename);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS webhook_endpoints (
        endpoint_id TEXT PRIMARY KEY, ukprn TEXT NOT NULL, url TEXT NOT NULL, event_types TEXT NOT NULL, api_version TEXT NOT NULL,
        secret TEXT NOT NULL, status TEXT NOT NULL, added_position INTEGER NOT NULL, disabled_reason TEXT);
      CREATE TABLE IF NOT EXISTS webhook_deliveries (
        delivery_id TEXT PRIMARY KEY, endpoint_id TEXT NOT NULL, position INTEGER NOT NULL, trainee_id TEXT NOT NULL,
        message_id TEXT NOT NULL, payload TEXT NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
        first_attempt_at INTEGER, next_attempt_at INTEGER NOT NULL, last_attempt_at INTEGER, last_status INTEGER,
        last_error TEXT, delivered_at INTEGER);
      -- Pending deliveries by due time; the oldest pending of an (endpoint, trainee); an endpoint's deliveries.
      CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX IF NOT EXISTS webhook_deliveries_order ON webhook_deliveries (endpoint_id, trainee_id, position) WHERE status = 'pending';
      CREATE INDEX IF NOT EXISTS webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, position);
      CREATE TABLE IF NOT EXISTS webhook_dispatcher (name TEXT PRIMARY KEY, position INTEGER NOT NULL);
    `);
    this.stmts = {
      checkpoint: this.db.prepare<[], number>(`SELECT position FROM webhook_dispatcher WHERE name = 'checkpoint'`).pluck(),
      setCheckpoint: this.db.prepare(`
        INSERT INTO webhook_dispatcher (name, position) VALUES ('checkpoint', ?)
        ON CONFLICT (name) DO UPDATE SET position = MAX(position, excluded.position)`),
      endpoints: this.db.prepare<[], EndpointRow>(`SELECT * FROM webhook_endpoints ORDER BY added_position`),
      upsertEndpoint: this.db.prepare(`
        INSERT INTO webhook_endpoints (endpoint_id, ukprn, url, event_types, api_version, secret, status, added_position, disabled_reason)
        VALUES (@endpoint_id, @ukprn, @url, @event_types, @api_version, @secret, @status, @added_position, @disabled_reason)
        ON CONFLICT (endpoint_id) DO UPDATE SET ukprn = excluded.ukprn, url = excluded.url, event_types = excluded.event_types,
          api_version = excluded.api_version, secret = excluded.secret, status = excluded.status,
          added_position = excluded.added_position, disabled_reason = excluded.disabled_reason`),
      insertDelivery: this.db.prepare(`
        INSERT OR IGNORE INTO webhook_deliveries (delivery_id, endpoint_id, position, trainee_id, message_id, payload, status, next_attempt_at)
        VALUES (@delivery_id, @endpoint_id, @position, @trainee_id, @message_id, @payload, 'pending', @next_attempt_at)`),
      abandon: this.db.prepare(`
        UPDATE webhook_deliveries SET status = 'abandoned', last_error = 'endpoint disabled' WHERE endpoint_id = ? AND status = 'pending'`),
      // The oldest pending delivery of each (endpoint, trainee), if it is due.
      due: this.db.prepare<[number, number], WebhookDelivery>(`
        SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
        WHERE d.status = 'pending' AND d.next_attempt_at <= ?
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries o WHERE o.status = 'pending' AND o.endpoint_id = d.endpoint_id
                          AND o.trainee_id = d.trainee_id AND o.position < d.position)
        ORDER BY d.position LIMIT ?`),
      nextDueAt: this.db.prepare<[], number | null>(`SELECT MIN(next_attempt_at) FROM webhook_deliveries WHERE status = 'pending'`).pluck(),
      delivered: this.db.prepare(`
        UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, first_attempt_at = COALESCE(first_attempt_at, @at),
          last_attempt_at = @at, last_status = @status, last_error = NULL, delivered_at = @at
        WHERE delivery_id = @id AND status = 'pending'`),
      failed: this.db.prepare(`
        UPDATE webhook_deliveries SET attempts = attempts + 1, first_attempt_at = COALESCE(first_attempt_at, @at), last_attempt_at = @at,
          last_status = @status, last_error = @error, next_attempt_at = @next
        WHERE delivery_id = @id AND status = 'pending'`),
      deliveries: this.db.prepare<[string, number], WebhookDelivery>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY position DESC LIMIT ?`,
      ),
    };
  }

  /** Opens the tables in `<dataDir>/read-models.sqlite`, creating the directory when needed. */
  static open(dataDir: string): SqliteWebhookOutbox {
    mkdirSync(dataDir, { recursive: true });
    return new SqliteWebhookOutbox(join(dataDir, 'read-models.sqlite'));
  }

  async checkpoint(): Promise<number> {
    return this.stmts.checkpoint.get() ?? 0;
  }

  async endpoints(): Promise<WebhookEndpointRecord[]> {
    return this.stmts.endpoints.all().map((row) => ({
      ...row,
      event_types: JSON.parse(row.event_types) as string[],
      status: row.status === 'disabled' ? 'disabled' : 'active',
    }));
  }

  async ingest(batch: Parameters<WebhookOutbox['ingest']>[0]): Promise<void> {
    this.db
      .transaction(() => {
        for (const e of batch.endpoints) this.stmts.upsertEndpoint.run({ ...e, event_types: JSON.stringify(e.event_types) });
        for (const d of batch.deliveries) this.stmts.insertDelivery.run(d satisfies NewWebhookDelivery);
        for (const id of batch.abandonFor) this.stmts.abandon.run(id);
        this.stmts.setCheckpoint.run(batch.checkpoint);
      })
      .immediate();
  }

  async due(now: number, limit: number): Promise<WebhookDelivery[]> {
    return this.stmts.due.all(now, limit);
  }

  async nextDueAt(): Promise<number | null> {
    return this.stmts.nextDueAt.get() ?? null;
  }

  async recordAttempt(deliveryId: string, attempt: WebhookAttempt): Promise<void> {
    if (attempt.delivered) this.stmts.delivered.run({ id: deliveryId, at: attempt.at, status: attempt.status });
    else
      this.stmts.failed.run({
        id: deliveryId,
        at: attempt.at,
        status: attempt.status,
        error: attempt.error,
        next: attempt.next_attempt_at,
      });
  }

  async deliveries(endpointId: string, limit: number): Promise<WebhookDelivery[]> {
    return this.stmts.deliveries.all(endpointId, limit);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
