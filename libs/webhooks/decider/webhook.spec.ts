import { toEventData } from '@app/event-sourcing';
import { DeciderSpecification } from '@app/event-sourcing/testing/decider-specification';
import {
  decideWebhookEndpoint,
  decodeWebhookEvent,
  evolveWebhookEndpoint,
  initialWebhookEndpointState,
  WEBHOOK_REASON_MAX_CHARS,
  WEBHOOK_URL_MAX_CHARS,
  WebhookCommandRejected,
  type WebhookCommand,
  type WebhookEndpointAdded,
  type WebhookEndpointDisabled,
} from './webhook';

const NOW = '2026-11-24T10:00:00.000Z';
const SECRET = `whsec_${'A'.repeat(43)}=`;
const spec = DeciderSpecification.for({
  decide: decideWebhookEndpoint,
  evolve: evolveWebhookEndpoint,
  initialState: () => initialWebhookEndpointState,
});

function add(overrides: Partial<Extract<WebhookCommand, { type: 'AddWebhookEndpoint' }>> = {}): WebhookCommand {
  return {
    type: 'AddWebhookEndpoint',
    endpoint_id: 'wh_1',
    ukprn: '10000001',
    url: 'https://hooks.example.org/trainees',
    event_types: [],
    api_version: 'latest',
    secret: SECRET,
    allow_http: false,
    now: NOW,
    ...overrides,
  };
}

function added(overrides: Partial<WebhookEndpointAdded['data']> = {}): WebhookEndpointAdded {
  return {
    type: 'WebhookEndpointAdded',
    data: {
      endpoint_id: 'wh_1',
      ukprn: '10000001',
      url: 'https://hooks.example.org/trainees',
      event_types: [],
      api_version: 'latest',
      secret: SECRET,
      at: NOW,
      ...overrides,
    },
  };
}

function disabled(reason = 'moved'): WebhookEndpointDisabled {
  return { type: 'WebhookEndpointDisabled', data: { endpoint_id: 'wh_1', ukprn: '10000001', reason, at: NOW } };
}

const disable = (reason = 'moved'): WebhookCommand => ({ type: 'DisableWebhookEndpoint', endpoint_id: 'wh_1', reason, now: NOW });
const saying = (pattern: RegExp) => (e: WebhookCommandRejected) => expect(e.message).toMatch(pattern);

describe('webhook endpoint decider: AddWebhookEndpoint (docs/change-feed.md "Webhooks")', () => {
  it('adds an endpoint with its URL normalised and its change types in the log order, without repeats', () => {
    spec
      .given([])
      .when(add({ url: 'HTTPS://Hooks.Example.org:443/trainees', event_types: ['TrnIssued', 'TraineeRegistered', 'TrnIssued'] }))
      .then([added({ event_types: ['TraineeRegistered', 'TrnIssued'] })]);
  });

  it('accepts http:// only when the sandbox allows it', () => {
    spec
      .given([])
      .when(add({ url: 'http://localhost:4000/hooks', allow_http: true }))
      .then([added({ url: 'http://localhost:4000/hooks' })]);
    spec
      .given([])
      .when(add({ url: 'http://hooks.example.org/' }))
      .thenThrows(WebhookCommandRejected, saying(/must be https:\/\/ \(http:\/\/ only in the sandbox\)/));
  });

  it.each([
    ['not a URL', 'hooks.example.org/x', /not a valid absolute URL/],
    ['another scheme', 'ftp://hooks.example.org/x', /must be https/],
    ['credentials', 'https://user:secret@hooks.example.org/x', /must not hold a user name or password/],
    ['an over-long URL', `https://hooks.example.org/${'a'.repeat(WEBHOOK_URL_MAX_CHARS)}`, /at most 2000 characters/],
  ])('refuses %s', (_, url, message) => {
    spec.given([]).when(add({ url })).thenThrows(WebhookCommandRejected, saying(message));
  });

  it('refuses unknown change types, naming them', () => {
    spec
      .given([])
      .when(add({ event_types: ['TraineeRegistered', 'TraineeDeleted'] }))
      .thenThrows(WebhookCommandRejected, saying(/Unknown change types: TraineeDeleted/));
  });

  it('refuses the erasure as a change type: the feed never carries one', () => {
    spec
      .given([])
      .when(add({ event_types: ['TraineeErased'] }))
      .thenThrows(WebhookCommandRejected, saying(/Unknown change types: TraineeErased/));
  });

  it('refuses a bad UKPRN, a malformed secret, a blank API version, and a second add of the same endpoint', () => {
    spec
      .given([])
      .when(add({ ukprn: '123' }))
      .thenThrows(WebhookCommandRejected, saying(/UKPRN must be 8 digits/));
    spec
      .given([])
      .when(add({ secret: 'whsec_short' }))
      .thenThrows(WebhookCommandRejected, saying(/signing secret/));
    spec
      .given([])
      .when(add({ api_version: ' ' }))
      .thenThrows(WebhookCommandRejected, saying(/API version must not be blank/));
    spec
      .given([added()])
      .when(add())
      .thenThrows(WebhookCommandRejected, saying(/already exists/));
  });
});

describe('webhook endpoint decider: DisableWebhookEndpoint', () => {
  it('disables an active endpoint with its trimmed reason, and gives nothing for a disabled one', () => {
    spec
      .given([added()])
      .when(disable('  moved to a new system '))
      .then([disabled('moved to a new system')]);
    spec.given([added(), disabled()]).when(disable('again')).then([]);
  });

  it('refuses an unknown endpoint, a blank reason and an over-long one', () => {
    spec
      .given([])
      .when(disable())
      .thenThrows(WebhookCommandRejected, saying(/No webhook endpoint wh_1/));
    spec
      .given([added()])
      .when(disable('  '))
      .thenThrows(WebhookCommandRejected, saying(/must not be blank/));
    spec
      .given([added()])
      .when(disable('x'.repeat(WEBHOOK_REASON_MAX_CHARS + 1)))
      .thenThrows(WebhookCommandRejected, saying(/at most 500 characters/));
  });
});

describe('webhook endpoint decider: ResealWebhookSecret (docs/operations.md "Rotating the service key")', () => {
  const SEALED = `sealed2.2.${'B'.repeat(60)}`;
  const reseal = (secret = SEALED): WebhookCommand => ({ type: 'ResealWebhookSecret', endpoint_id: 'wh_1', secret, now: NOW });
  const resealed = { type: 'WebhookSecretResealed', data: { endpoint_id: 'wh_1', ukprn: '10000001', secret: SEALED, at: NOW } } as const;

  it("stores the endpoint's secret sealed again, disabled or not, and the state holds it", () => {
    spec.given([added()]).when(reseal()).then([resealed]);
    spec.given([added(), disabled()]).when(reseal()).then([resealed]);
    const state = [added(), resealed].reduce(evolveWebhookEndpoint, initialWebhookEndpointState);
    expect(state).toMatchObject({ secret: SEALED, status: 'active' });
  });

  it('refuses an unknown endpoint, and a secret not sealed in the current format', () => {
    spec
      .given([])
      .when(reseal())
      .thenThrows(WebhookCommandRejected, saying(/No webhook endpoint wh_1/));
    for (const secret of [SECRET, `sealed1.${'B'.repeat(60)}`, 'sealed2.x.abc']) {
      spec
        .given([added()])
        .when(reseal(secret))
        .thenThrows(WebhookCommandRejected, saying(/must be sealed/));
    }
  });
});

describe('webhook endpoint events', () => {
  it('evolve into the endpoint as listed: active, then disabled with its reason', () => {
    const active = evolveWebhookEndpoint(initialWebhookEndpointState, added({ event_types: ['TrnIssued'] }));
    expect(active).toMatchObject({ exists: true, endpoint_id: 'wh_1', ukprn: '10000001', event_types: ['TrnIssued'], status: 'active' });
    expect(evolveWebhookEndpoint(active, disabled('gone'))).toMatchObject({ status: 'disabled', disabled_reason: 'gone' });
  });

  it('round-trip through the envelope codec and decode; other types decode to null', () => {
    const [envelope] = toEventData([added()], { occurredAt: NOW }, () => 'id-1');
    expect(envelope.metadata.schemaVersion).toBe(1);
    expect(decodeWebhookEvent(envelope)).toEqual(added());
    expect(decodeWebhookEvent({ type: 'TraineeRegistered', data: {} })).toBeNull();
    expect(decodeWebhookEvent({ type: 'WebhookEndpointAdded', data: null })).toBeNull();
  });
});
