/**
 * Where the webhook dispatcher keeps its state (docs/change-feed.md "Webhooks"): the endpoints as
 * it has read them from the log, one delivery per (endpoint, change) with its attempts, and its own
 * checkpoint in the log. Outside the projection stores, like the idempotency keys (on SQLite the
 * state file, `state.sqlite`; on MongoDB collections beside the read models), so a rebuild, a swap
 * or a damaged read store built afresh never touches it. Times are epoch milliseconds, given
 * by the caller, so retries and give-up are tested without waiting.
 */
import type { LogPosition } from '@app/event-sourcing';

/** An endpoint as the dispatcher knows it (folded from its `webhook-<endpoint_id>` stream). */
export interface WebhookEndpointRecord {
  endpoint_id: string;
  ukprn: string;
  url: string;
  /** Change types delivered (`TraineeUpdated`, …); empty: every type. */
  event_types: string[];
  /** The API version whose field names the payload uses. */
  api_version: string;
  /**
   * The Standard Webhooks signing secret as stored: sealed (`sealed2.<version>.…`, or `sealed1.…`
   * before versions), or `whsec_…` from before sealing, which is refused (`SealedSecrets`).
   */
  secret: string;
  status: 'active' | 'disabled';
  /** Global position of the event that added it: it receives the changes after it. */
  added_position: LogPosition;
  disabled_reason: string | null;
}

/** A delivery to enqueue: one change for one endpoint. */
export interface NewWebhookDelivery {
  /** `<endpoint_id>.<position>`: unique, so an enqueue repeated after a crash adds nothing. */
  delivery_id: string;
  endpoint_id: string;
  /** Global position of the change (its order). */
  position: LogPosition;
  trainee_id: string;
  /** The `webhook-id` header: the same on every attempt, so the receiver can drop repeats. */
  message_id: string;
  /**
   * The request body, JSON text (the feed's item in the endpoint's API version); empty for a
   * delivery no longer pending restored from a backup, which leaves payloads out.
   */
  payload: string;
  /** When it may first be sent. */
  next_attempt_at: number;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'abandoned';

/** A delivery with its attempts so far. */
export interface WebhookDelivery extends NewWebhookDelivery {
  status: WebhookDeliveryStatus;
  attempts: number;
  /** When the first attempt was made; null before it. */
  first_attempt_at: number | null;
  last_attempt_at: number | null;
  /** The HTTP status of the last attempt; null when it got none (refused, timed out, blocked). */
  last_status: number | null;
  /** Why the last attempt failed; null after a success or before any attempt. */
  last_error: string | null;
  delivered_at: number | null;
}

/** What one attempt gave. */
export type WebhookAttempt =
  | { delivered: true; at: number; status: number }
  | { delivered: false; at: number; status: number | null; error: string; next_attempt_at: number };

/** The port. */
export interface WebhookOutbox {
  /** Position of the last log event the dispatcher has ingested (`LOG_START` when none). */
  checkpoint(): Promise<LogPosition>;
  /** Every endpoint the dispatcher has read, active or not. */
  endpoints(): Promise<WebhookEndpointRecord[]>;
  /**
   * Stores, all or nothing where the store allows (SQLite; on MongoDB each write is idempotent and
   * the checkpoint goes last): the endpoints given (replacing the stored record of the same id),
   * the deliveries given (one already stored, by id, is kept as it is), the abandonment of every
   * pending delivery of the endpoints named in `abandonFor` (at `at`), and the checkpoint (only
   * forward).
   */
  ingest(batch: {
    endpoints: WebhookEndpointRecord[];
    deliveries: NewWebhookDelivery[];
    abandonFor: string[];
    at: number;
    checkpoint: LogPosition;
  }): Promise<void>;
  /**
   * Up to `limit` pending deliveries due at `now` (next_attempt_at ≤ now), each the oldest pending
   * delivery of its (endpoint, trainee): a later change of a trainee waits for the earlier one
   * (in order per trainee). Oldest position first.
   */
  due(now: number, limit: number): Promise<WebhookDelivery[]>;
  /** The earliest next_attempt_at among pending deliveries, or null when none is pending. */
  nextDueAt(): Promise<number | null>;
  /** How many deliveries are pending (not yet delivered or abandoned), due or not (the metrics, docs/observability.md). */
  pendingCount(): Promise<number>;
  /** Records an attempt of a pending delivery (nothing when it is no longer pending). */
  recordAttempt(deliveryId: string, attempt: WebhookAttempt): Promise<void>;
  /** The endpoint's deliveries, newest position first, at most `limit`. */
  deliveries(endpointId: string, limit: number): Promise<WebhookDelivery[]>;
  /**
   * Forgets an erased trainee in the deliveries' payloads (docs/DESIGN.md "Personal data"): each of
   * its deliveries, sent or not, keeps its change as the feed does (`forgottenPayload`: no personal
   * field named, `trn` null). Returns how many payloads changed. A pass over the trainee's
   * deliveries, for the erasure only.
   */
  forgetTrainee(traineeId: string): Promise<number>;
  close(): Promise<void> | void;
}
