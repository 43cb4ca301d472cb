import { forgottenChangeItem, renderChange, type ChangeItem, type CursorCodec, type StoredChange } from '@app/changes';
import type { ApiVersion } from '@app/trainees/record';
import type { LogPosition } from '@app/event-sourcing';
import type { WebhookEvent } from '@app/webhooks/decider';
import type { NewWebhookDelivery, WebhookEndpointRecord } from './webhook-outbox.port';

/** The same on every attempt. */
export function messageIdOf(endpointId: string, position: LogPosition): string {
  return `msg_${endpointId}_${position}`;
}

/** Null for an event of an endpoint never added. */
export function applyEndpointEvent(
  current: WebhookEndpointRecord | undefined,
  event: WebhookEvent,
  position: LogPosition,
): WebhookEndpointRecord | null {
  if (event.type === 'WebhookEndpointAdded') {
    const d = event.data;
    return {
      endpoint_id: d.endpoint_id,
      ukprn: d.ukprn,
      url: d.url,
      event_types: d.event_types,
      api_version: d.api_version,
      secret: d.secret,
      status: 'active',
      added_position: position,
      disabled_reason: null,
    };
  }
  if (!current) return null;
  if (event.type === 'WebhookSecretResealed') return { ...current, secret: event.data.secret };
  return { ...current, status: 'disabled', disabled_reason: event.data.reason };
}

/** Active, the trainee's provider's, added before the change, and asking for its type. */
export function receives(endpoint: WebhookEndpointRecord, change: StoredChange): boolean {
  return (
    endpoint.status === 'active' &&
    endpoint.ukprn === change.ukprn &&
    endpoint.added_position < change.position &&
    (endpoint.event_types.length === 0 || endpoint.event_types.includes(change.type))
  );
}

/** The feed's item in the endpoint's API version, for its provider, due at `at`. */
export function deliveryOf(endpoint: WebhookEndpointRecord, change: StoredChange, at: number, cursors: CursorCodec): NewWebhookDelivery {
  return {
    delivery_id: `${endpoint.endpoint_id}.${change.position}`,
    endpoint_id: endpoint.endpoint_id,
    position: change.position,
    trainee_id: change.trainee_id,
    message_id: messageIdOf(endpoint.endpoint_id, change.position),
    payload: JSON.stringify(renderChange(change, endpoint.api_version as ApiVersion, cursors.encode(endpoint.ukprn, change.position))),
    next_attempt_at: at,
  };
}

/**
 * A payload as an erasure leaves it (docs/change-feed.md "An erased trainee's changes"): no personal field named, no TRN; null when
 * it already says no more, or is empty (a settled delivery restored from a backup).
 */
export function forgottenPayload(payload: string): string | null {
  if (payload === '') return null;
  const item = JSON.parse(payload) as ChangeItem;
  const forgotten = forgottenChangeItem({ ...item, changed_fields: Array.isArray(item.changed_fields) ? item.changed_fields : [] });
  if (!Array.isArray(item.changed_fields)) delete (forgotten as Partial<ChangeItem>).changed_fields;
  const text = JSON.stringify(forgotten);
  return text === JSON.stringify(item) ? null : text;
}
