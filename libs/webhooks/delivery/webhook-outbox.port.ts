/**
 * The webhook dispatcher's state (docs/change-feed.md "Webhooks"): endpoints, deliveries with their attempts, and its checkpoint,
 * outside the projection stores so a rebuild never touches it. Times are epoch ms given by the caller.
 */
import type { LogPosition } from '@app/event-sourcing';

/** Folded from its `webhook-<endpoint_id>` stream. */
export interface WebhookEndpointRecord {
  endpoint_id: string;
  ukprn: string;
  url: string;
  /** Empty: every type. */
  event_types: string[];
  /** Whose field names the payload uses. */
  api_version: string;
  /** As stored: `sealed2.<version>.…`, `sealed1.…` before versions, or `whsec_…` from before sealing, which is refused. */
  secret: string;
  status: 'active' | 'disabled';
  /** Of the event that added it: it receives the changes after it. */
  added_position: LogPosition;
  disabled_reason: string | null;
}

export interface NewWebhookDelivery {
  /** `<endpoint_id>.<position>`: an enqueue repeated after a crash adds nothing. */
  delivery_id: string;
  endpoint_id: string;
  /** The change's: the order. */
  position: LogPosition;
  trainee_id: string;
  /** The `webhook-id` header, the same on every attempt. */
  message_id: string;
  /** JSON text of the feed's item in the endpoint's version; empty for a settled delivery restored from a backup. */
  payload: string;
  next_attempt_at: number;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'abandoned';

export interface WebhookDelivery extends NewWebhookDelivery {
  status: WebhookDeliveryStatus;
  attempts: number;
  first_attempt_at: number | null;
  last_attempt_at: number | null;
  /** Null when the last attempt got no status (refused, timed out, blocked). */
  last_status: number | null;
  /** Null after a success or before any attempt. */
  last_error: string | null;
  delivered_at: number | null;
}

export type WebhookAttempt =
  | { delivered: true; at: number; status: number }
  | { delivered: false; at: number; status: number | null; error: string; next_attempt_at: number };

export interface WebhookOutbox {
  /** `LOG_START` when none. */
  checkpoint(): Promise<LogPosition>;
  /** Active or not. */
  endpoints(): Promise<WebhookEndpointRecord[]>;
  /**
   * All or nothing where the store allows (SQLite; on MongoDB each write is idempotent, the checkpoint last): endpoints replaced by id,
   * new deliveries (one stored already is kept), `abandonFor`'s pending deliveries abandoned, the checkpoint moved forward only.
   */
  ingest(batch: {
    endpoints: WebhookEndpointRecord[];
    deliveries: NewWebhookDelivery[];
    abandonFor: string[];
    at: number;
    checkpoint: LogPosition;
  }): Promise<void>;
  /** Up to `limit` due at `now`, oldest position first, each the oldest pending of its (endpoint, trainee): in order per trainee. */
  due(now: number, limit: number): Promise<WebhookDelivery[]>;
  /** Null when none is pending. */
  nextDueAt(): Promise<number | null>;
  /** Due or not (docs/observability.md). */
  pendingCount(): Promise<number>;
  /** Nothing when it is no longer pending. */
  recordAttempt(deliveryId: string, attempt: WebhookAttempt): Promise<void>;
  /** Newest position first. */
  deliveries(endpointId: string, limit: number): Promise<WebhookDelivery[]>;
  /**
   * After a restore left the outbox ahead of the log (docs/operations.md "Backups and restore"): its endpoints replaced by `endpoints`
   * (as the log holds them up to `checkpoint`), every delivery of a position after `checkpoint` dropped, sent or not, and the checkpoint
   * set to `checkpoint`, back as well as forward. All or nothing on SQLite; on MongoDB each step is idempotent, the checkpoint last.
   * How many deliveries it dropped.
   */
  resetTo(reset: { checkpoint: LogPosition; endpoints: WebhookEndpointRecord[] }): Promise<number>;
  /** For an erasure: every payload of the trainee keeps its change as the feed does (`forgottenPayload`). How many changed. */
  forgetTrainee(traineeId: string): Promise<number>;
  close(): Promise<void> | void;
}
