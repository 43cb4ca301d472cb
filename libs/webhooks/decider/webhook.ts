import { DomainError, registerEventSchemas } from '@app/event-sourcing';
import { isValidUkprn } from '@app/providers/decider';
import { PROVIDER_EVENT_TYPES } from '@app/trainees/decider';

/**
 * A provider's webhook endpoints in `webhook-<endpoint_id>` streams (docs/change-feed.md "Webhooks"). Ids, secrets and time come in the
 * commands; the payload's API version is opaque here.
 */

/** `secret` sealed (`sealed2.<version>.…`, `sealed1.…` before versions), or plain `whsec_…` in events from before sealing. */
export interface WebhookEndpointAdded {
  type: 'WebhookEndpointAdded';
  data: { endpoint_id: string; ukprn: string; url: string; event_types: string[]; api_version: string; secret: string; at: string };
}

/** By an operator, or by the dispatcher giving up (docs/change-feed.md "Retries"). */
export interface WebhookEndpointDisabled {
  type: 'WebhookEndpointDisabled';
  data: { endpoint_id: string; ukprn: string; reason: string; at: string };
}

/** The same secret under the current version, bound to its endpoint; the event it replaces stays in the log as it was. */
export interface WebhookSecretResealed {
  type: 'WebhookSecretResealed';
  data: { endpoint_id: string; ukprn: string; secret: string; at: string };
}

export type WebhookEvent = WebhookEndpointAdded | WebhookEndpointDisabled | WebhookSecretResealed;
export type WebhookEventType = WebhookEvent['type'];

export const WEBHOOK_EVENT_SCHEMA_VERSIONS: Record<WebhookEventType, number> = {
  WebhookEndpointAdded: 1,
  WebhookEndpointDisabled: 1,
  WebhookSecretResealed: 1,
};
registerEventSchemas(WEBHOOK_EVENT_SCHEMA_VERSIONS);

/** An endpoint lives in `webhook-<endpoint_id>`. */
export const WEBHOOK_STREAM_PREFIX = 'webhook-';

export function webhookStreamId(endpointId: string): string {
  return `${WEBHOOK_STREAM_PREFIX}${endpointId}`;
}

export function isWebhookEventType(type: string): type is WebhookEventType {
  return Object.prototype.hasOwnProperty.call(WEBHOOK_EVENT_SCHEMA_VERSIONS, type);
}

/** A known type with object data, else null. */
export function decodeWebhookEvent(stored: { type: string; data: unknown }): WebhookEvent | null {
  if (!isWebhookEventType(stored.type) || typeof stored.data !== 'object' || stored.data === null) return null;
  return { type: stored.type, data: stored.data } as WebhookEvent;
}

export interface WebhookEndpointState {
  exists: boolean;
  endpoint_id: string | null;
  ukprn: string | null;
  url: string | null;
  /** Change types delivered; empty: every type. */
  event_types: string[];
  api_version: string | null;
  status: 'active' | 'disabled';
  disabled_reason: string | null;
  /** As last stored (sealed, or plain from before sealing); never shown. */
  secret: string | null;
}

export const initialWebhookEndpointState: WebhookEndpointState = {
  exists: false,
  endpoint_id: null,
  ukprn: null,
  url: null,
  event_types: [],
  api_version: null,
  status: 'active',
  disabled_reason: null,
  secret: null,
};

export function evolveWebhookEndpoint(state: WebhookEndpointState, event: WebhookEvent): WebhookEndpointState {
  switch (event.type) {
    case 'WebhookEndpointAdded': {
      const d = event.data;
      return {
        exists: true,
        endpoint_id: d.endpoint_id,
        ukprn: d.ukprn,
        url: d.url,
        event_types: [...d.event_types],
        api_version: d.api_version,
        status: 'active',
        disabled_reason: null,
        secret: d.secret,
      };
    }
    case 'WebhookEndpointDisabled':
      return { ...state, status: 'disabled', disabled_reason: event.data.reason };
    case 'WebhookSecretResealed':
      return { ...state, secret: event.data.secret };
  }
}

export type WebhookCommand =
  | {
      type: 'AddWebhookEndpoint';
      endpoint_id: string;
      ukprn: string;
      url: string;
      event_types: string[];
      api_version: string;
      secret: string;
      /** The sandbox only. */
      allow_http: boolean;
      now: string;
    }
  | { type: 'DisableWebhookEndpoint'; endpoint_id: string; reason: string; now: string }
  /** `secret` must be sealed in the current format (`sealed2.`). */
  | { type: 'ResealWebhookSecret'; endpoint_id: string; secret: string; now: string };

/** The message is for the operator's terminal. */
export class WebhookCommandRejected extends DomainError {
  readonly kind = 'WebhookCommandRejected';
}

export const WEBHOOK_URL_MAX_CHARS = 2000;
export const WEBHOOK_REASON_MAX_CHARS = 500;

/** A Standard Webhooks secret (`whsec_`, ≥ 24 bytes base64), or one the service sealed (libs/webhooks/write/sealed-secrets.ts). */
const SECRET = /^(whsec_[A-Za-z0-9+/]{32,}={0,2}|sealed1\.[A-Za-z0-9_-]{40,}|sealed2\.[1-9]\d{0,8}\.[A-Za-z0-9_-]{40,})$/;

const RESEALED = /^sealed2\.[1-9]\d{0,8}\.[A-Za-z0-9_-]{40,}$/;

/** For a message: at most 100 characters of operator input. */
function shown(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

/** WHATWG-normalised, or a rejection: https (http with `allowHttp`), no credentials, a host. */
function checkedUrl(url: string, allowHttp: boolean): string {
  if (url.length > WEBHOOK_URL_MAX_CHARS) throw new WebhookCommandRejected(`URL must be at most ${WEBHOOK_URL_MAX_CHARS} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new WebhookCommandRejected(`URL is not a valid absolute URL: '${shown(url)}'`);
  }
  if (parsed.protocol !== 'https:' && !(allowHttp && parsed.protocol === 'http:')) {
    throw new WebhookCommandRejected(
      allowHttp
        ? `URL must be http:// or https://, got '${shown(url)}'`
        : `URL must be https:// (http:// only in the sandbox), got '${shown(url)}'`,
    );
  }
  if (parsed.username !== '' || parsed.password !== '') throw new WebhookCommandRejected('URL must not hold a user name or password');
  if (parsed.hostname === '') throw new WebhookCommandRejected(`URL has no host: '${shown(url)}'`);
  return parsed.toString();
}

/** Known types only, without repeats, in `PROVIDER_EVENT_TYPES` order; empty: all. */
function checkedTypes(types: string[]): string[] {
  const unknown = types.filter((t) => !(PROVIDER_EVENT_TYPES as readonly string[]).includes(t));
  if (unknown.length > 0) {
    throw new WebhookCommandRejected(`Unknown change types: ${unknown.map(shown).join(', ')} (known: ${PROVIDER_EVENT_TYPES.join(', ')})`);
  }
  return PROVIDER_EVENT_TYPES.filter((t) => types.includes(t));
}

function addEndpoint(command: Extract<WebhookCommand, { type: 'AddWebhookEndpoint' }>, state: WebhookEndpointState): WebhookEvent[] {
  if (state.exists) throw new WebhookCommandRejected(`Webhook endpoint ${command.endpoint_id} already exists`);
  if (!isValidUkprn(command.ukprn)) throw new WebhookCommandRejected(`UKPRN must be 8 digits, got '${shown(command.ukprn)}'`);
  const url = checkedUrl(command.url, command.allow_http);
  const event_types = checkedTypes(command.event_types);
  if (!SECRET.test(command.secret)) throw new WebhookCommandRejected('The signing secret must be whsec_ and at least 24 bytes, base64');
  if (command.api_version.trim() === '') throw new WebhookCommandRejected('The API version must not be blank');
  const { endpoint_id, ukprn, api_version, secret } = command;
  return [{ type: 'WebhookEndpointAdded', data: { endpoint_id, ukprn, url, event_types, api_version, secret, at: command.now } }];
}

/**
 * Throws {@link WebhookCommandRejected} for a duplicate endpoint, a bad UKPRN, URL, change type, secret or API version, an unknown
 * endpoint, or a blank or over-long reason. Disabling a disabled endpoint gives no event; resealing a disabled one's secret gives one.
 */
export function decideWebhookEndpoint(command: WebhookCommand, state: WebhookEndpointState): WebhookEvent[] {
  if (command.type === 'AddWebhookEndpoint') return addEndpoint(command, state);
  if (!state.exists) throw new WebhookCommandRejected(`No webhook endpoint ${shown(command.endpoint_id)}`);
  if (command.type === 'ResealWebhookSecret') {
    if (!RESEALED.test(command.secret)) throw new WebhookCommandRejected('A resealed secret must be sealed (sealed2.…)');
    const data = { endpoint_id: command.endpoint_id, ukprn: state.ukprn!, secret: command.secret, at: command.now };
    return [{ type: 'WebhookSecretResealed', data }];
  }
  const reason = command.reason.trim();
  if (reason === '') throw new WebhookCommandRejected('The reason must not be blank');
  if (reason.length > WEBHOOK_REASON_MAX_CHARS)
    throw new WebhookCommandRejected(`The reason must be at most ${WEBHOOK_REASON_MAX_CHARS} characters`);
  if (state.status === 'disabled') return [];
  return [{ type: 'WebhookEndpointDisabled', data: { endpoint_id: command.endpoint_id, ukprn: state.ukprn!, reason, at: command.now } }];
}
