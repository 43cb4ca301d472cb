import { randomBytes } from 'node:crypto';
import { API_VERSIONS } from '@app/trainees/record';
import {
  decideWebhookEndpoint,
  decodeWebhookEvent,
  evolveWebhookEndpoint,
  initialWebhookEndpointState,
  WEBHOOK_STREAM_PREFIX,
  WebhookCommandRejected,
  webhookStreamId,
  type WebhookCommand,
  type WebhookEndpointState,
  type WebhookEvent,
} from '@app/webhooks/decider';
import { LOG_START, toEventData, newEventId, runCommand, type EventStore, type RecordedEvent } from '@app/event-sourcing';
import type { ProviderReadModel } from '@app/providers/read';
import { checkWebhookTarget, type AddressPolicy } from './address-guard';
import { SealedSecrets } from './sealed-secrets';

/** As the admin CLI lists it: never its secret. */
export interface WebhookEndpointView {
  endpoint_id: string;
  ukprn: string;
  url: string;
  /** Empty: all. */
  event_types: string[];
  api_version: string;
  status: 'active' | 'disabled';
  disabled_reason: string | null;
  added_at: string;
}

/** `secret` is shown once, by `webhook add`. */
export interface AddedWebhookEndpoint extends WebhookEndpointView {
  secret: string;
}

/** docs/change-feed.md "Where a webhook may point". */
export interface WebhookTargetPolicy extends AddressPolicy {
  /** The sandbox only. */
  allowHttp: boolean;
}

/** The operator's `admin webhook` commands (docs/change-feed.md "Webhooks"). Throws `WebhookCommandRejected`. */
export class WebhookOperations {
  constructor(
    private readonly eventStore: EventStore,
    private readonly providers: Pick<ProviderReadModel, 'getProvider'>,
    private readonly policy: WebhookTargetPolicy,
    private readonly secrets: SealedSecrets,
    private readonly resolve?: (host: string) => Promise<string[]>,
  ) {}

  /**
   * A new id and Standard Webhooks secret (`whsec_` + 32 random bytes), returned once and stored sealed. Refuses an unknown provider or
   * API version, a URL the policy forbids, and what the domain refuses.
   */
  async add(input: { ukprn: string; url: string; eventTypes: string[]; apiVersion?: string }): Promise<AddedWebhookEndpoint> {
    if (!(await this.providers.getProvider(input.ukprn))) throw new WebhookCommandRejected(`No provider with UKPRN ${input.ukprn}`);
    const apiVersion = input.apiVersion ?? API_VERSIONS[API_VERSIONS.length - 1];
    if (!(API_VERSIONS as readonly string[]).includes(apiVersion)) {
      throw new WebhookCommandRejected(`API version must be one of ${API_VERSIONS.join(', ')}, got '${apiVersion.slice(0, 40)}'`);
    }
    const endpointId = `wh_${randomBytes(12).toString('hex')}`;
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const command: WebhookCommand = {
      type: 'AddWebhookEndpoint',
      endpoint_id: endpointId,
      ukprn: input.ukprn,
      url: input.url,
      event_types: input.eventTypes,
      api_version: apiVersion,
      secret,
      allow_http: this.policy.allowHttp,
      now: new Date().toISOString(),
    };
    decideWebhookEndpoint(command, initialWebhookEndpointState);
    await checkWebhookTarget(input.url, this.policy, this.resolve).catch((err: unknown) => {
      throw new WebhookCommandRejected(err instanceof Error ? err.message : String(err));
    });
    // The log, its exports and the outbox never hold the secret itself.
    await this.secrets.sealing(() => this.run(endpointId, () => ({ ...command, secret: this.secrets.seal(secret, endpointId) })));
    const added = (await this.list()).find((e) => e.endpoint_id === endpointId)!;
    return { ...added, secret };
  }

  /** Its pending deliveries are abandoned. False when it was disabled already. */
  async disable(endpointId: string, reason: string): Promise<boolean> {
    return disableWebhookEndpoint(this.eventStore, endpointId, reason, new Date());
  }

  /** Folded from the log, in the order they were added. */
  async list(ukprn?: string): Promise<WebhookEndpointView[]> {
    const states = new Map<string, { state: WebhookEndpointState; added_at: string }>();
    for (const recorded of await allEndpointEvents(this.eventStore)) {
      const event = decodeWebhookEvent(recorded);
      if (!event) continue;
      const id = event.data.endpoint_id;
      const entry = states.get(id) ?? { state: initialWebhookEndpointState, added_at: recorded.metadata.occurredAt };
      states.set(id, { ...entry, state: evolveWebhookEndpoint(entry.state, event) });
    }
    return [...states.values()]
      .filter(({ state }) => state.exists && (ukprn === undefined || state.ukprn === ukprn))
      .map(({ state, added_at }) => viewOf(state, added_at));
  }

  /**
   * Seals again every secret not under the current version and bound to its endpoint (docs/operations.md "Rotating the service key"),
   * each a `WebhookSecretResealed` appended at the revision read. Counts: resealed, current, and per version before (`plain`).
   * Throws `SecretNotOpened` for a sealed secret no version held opens.
   */
  async resealSecrets(): Promise<{ resealed: number; current: number; before: Map<number | 'plain', number> }> {
    const counts = { resealed: 0, current: 0, before: new Map<number | 'plain', number>() };
    for (const [endpointId, stored] of await this.storedSecrets()) {
      const version = SealedSecrets.versionOf(stored) ?? 'plain';
      counts.before.set(version, (counts.before.get(version) ?? 0) + 1);
      // A reseal run twice at once appends a second, equal event.
      const appended = await this.secrets.sealing(async () => {
        if (this.secrets.isCurrent(stored)) return null;
        return this.run(endpointId, (state) => ({
          type: 'ResealWebhookSecret',
          endpoint_id: endpointId,
          secret: this.secrets.resealed(state.secret!, endpointId) ?? state.secret!,
          now: new Date().toISOString(),
        }));
      });
      if (appended === null) counts.current++;
      else if (appended > 0) counts.resealed++;
    }
    return counts;
  }

  /** As {@link resealSecrets} counts them; `plain`: in plain text. */
  async secretVersions(): Promise<Map<number | 'plain', number>> {
    const counts = new Map<number | 'plain', number>();
    for (const stored of (await this.storedSecrets()).values()) {
      const version = SealedSecrets.versionOf(stored) ?? 'plain';
      counts.set(version, (counts.get(version) ?? 0) + 1);
    }
    return counts;
  }

  /** By endpoint id, as last stored. */
  private async storedSecrets(): Promise<Map<string, string>> {
    const states = new Map<string, WebhookEndpointState>();
    for (const recorded of await allEndpointEvents(this.eventStore)) {
      const event = decodeWebhookEvent(recorded);
      if (event)
        states.set(event.data.endpoint_id, evolveWebhookEndpoint(states.get(event.data.endpoint_id) ?? initialWebhookEndpointState, event));
    }
    return new Map([...states].filter(([, s]) => s.exists && s.secret !== null).map(([id, s]) => [id, s.secret!]));
  }

  private run(endpointId: string, command: (state: WebhookEndpointState) => WebhookCommand): Promise<number> {
    return runWebhookCommand(this.eventStore, endpointId, command, new Date());
  }
}

/**
 * `webhook disable`, or the dispatcher giving up; false when disabled already. Throws `WebhookCommandRejected` for an unknown endpoint
 * or a blank reason.
 */
export async function disableWebhookEndpoint(eventStore: EventStore, endpointId: string, reason: string, now: Date): Promise<boolean> {
  const command = (): WebhookCommand => ({ type: 'DisableWebhookEndpoint', endpoint_id: endpointId, reason, now: now.toISOString() });
  return (await runWebhookCommand(eventStore, endpointId, command, now)) > 0;
}

/** The number of events appended. */
async function runWebhookCommand(
  eventStore: EventStore,
  endpointId: string,
  command: (state: WebhookEndpointState) => WebhookCommand,
  now: Date,
): Promise<number> {
  const outcome = await runCommand<WebhookEndpointState, WebhookEvent>(eventStore, webhookStreamId(endpointId), {
    initialState: initialWebhookEndpointState,
    evolve: evolveWebhookEndpoint,
    decode: decodeWebhookEvent,
    decide: (state) => decideWebhookEndpoint(command(state), state),
    encode: (events) => toEventData(events, { occurredAt: now.toISOString() }, newEventId),
  });
  return outcome.events.length;
}

/** In position order: by stream where the store can (the stream-id index), else by position with a filter. */
async function allEndpointEvents(eventStore: EventStore): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  if (eventStore.readStreamsByPrefix) {
    const toPosition = await eventStore.headPosition();
    for (let afterStream: string | null = null; ;) {
      const read = await eventStore.readStreamsByPrefix({ streamPrefix: WEBHOOK_STREAM_PREFIX, afterStream, toPosition, maxCount: 1000 });
      if (read.length === 0) break;
      events.push(...read);
      afterStream = read[read.length - 1].streamId;
    }
    return events.sort((a, b) => a.position - b.position);
  }
  for (let from = LOG_START; ;) {
    const batch = await eventStore.readAll({ fromPosition: from, maxCount: 1000, filter: { streamPrefixes: [WEBHOOK_STREAM_PREFIX] } });
    events.push(...batch);
    if (batch.length < 1000) return events;
    from = batch[batch.length - 1].position;
  }
}

function viewOf(state: WebhookEndpointState, addedAt: string): WebhookEndpointView {
  return {
    endpoint_id: state.endpoint_id!,
    ukprn: state.ukprn!,
    url: state.url!,
    event_types: state.event_types,
    api_version: state.api_version!,
    status: state.status,
    disabled_reason: state.disabled_reason,
    added_at: addedAt,
  };
}
