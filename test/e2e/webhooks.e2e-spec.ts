import { CursorCodec } from '@app/changes';
import { Webhook } from 'standardwebhooks';
import { WebhookCommandRejected } from '@app/webhooks/decider';
import { PROJECTED_STREAMS } from '@app/runtime/projector';
import { SqliteWebhookOutbox } from '@app/stores/sqlite';
import { WebhookDispatcher } from '@app/webhooks/delivery';
import { SealedSecrets, WebhookOperations } from '@app/webhooks/write';
import { sealedSecretsOf, type ServiceKeyring } from '@app/runtime/process';
import { SERVICE_KEY } from '../../apps/api/src/composition/tokens';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee, type Version } from '../support/trainee-input';
import { WebhookReceiver } from '../support/webhook-receiver';

const A = '10000301';
const B = '10000302';
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Endpoint operations as the sandbox allows them: http:// and loopback receivers. */
function sandboxOperations(api: RunningApi): WebhookOperations {
  return new WebhookOperations(api.infra.eventStore, api.infra.readModel, { allowHttp: true, allowPrivate: true }, secretsOf(api));
}

/** The secrets' sealing of the API (its service key), so its dispatcher opens what these operations seal. */
function secretsOf(api: RunningApi): SealedSecrets {
  return sealedSecretsOf(api.app.get<ServiceKeyring>(SERVICE_KEY));
}

async function create(api: RunningApi, token: string, version: Version = 'v2026.1'): Promise<string> {
  const res = await api.request('POST', `/api/${version}/trainees`, token, uniqueTrainee(version));
  expect(res.status).toBe(201);
  return res.body.data.trainee_id as string;
}

/** The whole feed of a token in a version, as GET /changes answers it. */
async function feedOf(api: RunningApi, token: string, version: Version): Promise<Record<string, unknown>[]> {
  const res = await api.request('GET', `/api/${version}/changes?limit=1000`, token);
  expect(res.status).toBe(200);
  return res.body.data;
}

describe('webhooks (docs/change-feed.md "Webhooks")', () => {
  let api: RunningApi;
  let tokenA: string;
  let tokenB: string;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    api = await RunningApi.start({ webhooks: { retryBaseMs: 30, retryMaxMs: 200 } });
    tokenA = await api.providerToken(A);
    tokenB = await api.providerToken(B);
  });

  afterAll(async () => {
    await api.close();
    for (const r of receivers) await r.close();
  });

  async function receiver(answer?: (n: number, body: string) => number | 'hang'): Promise<WebhookReceiver> {
    const r = await WebhookReceiver.start(answer);
    receivers.push(r);
    return r;
  }

  it("delivers each of the provider's changes, signed, as the feed's item in the endpoint's version, and none of another's", async () => {
    const mine = await receiver();
    const theirs = await receiver();
    const ops = sandboxOperations(api);
    const endpoint = await ops.add({ ukprn: A, url: mine.url, eventTypes: [], apiVersion: 'v2025.0' });
    await ops.add({ ukprn: B, url: theirs.url, eventTypes: ['TraineeRegistered'] });
    expect(endpoint.secret).toMatch(/^whsec_/);
    await api.infra.catchUp();

    const idA = await create(api, tokenA);
    const idB = await create(api, tokenB);
    const feedA = (await feedOf(api, tokenA, 'v2025.0')).filter((c) => c.trainee_id === idA);
    expect(feedA.length).toBeGreaterThan(2);
    await mine.until(() => mine.acknowledged().length >= feedA.length);
    await theirs.until(() => theirs.acknowledged().length >= 1);

    expect(mine.acknowledged()).toEqual(feedA);
    const verifier = new Webhook(endpoint.secret);
    for (const r of mine.received) {
      expect(() => verifier.verify(r.body, r.headers as Record<string, string>)).not.toThrow();
      expect(r.headers['webhook-id']).toMatch(new RegExp(`^msg_${endpoint.endpoint_id}_\\d+$`));
      expect(() => verifier.verify(r.body.replace(idA, idB), r.headers as Record<string, string>)).toThrow();
    }
    // B asked for registrations only, and sees only its own.
    expect(theirs.acknowledged().map((c) => [c.trainee_id, c.type])).toEqual([[idB, 'TraineeRegistered']]);
  });

  it('retries a failing receiver with back-off and, once it recovers, delivers each change once, in order per trainee', async () => {
    const flaky = await receiver((n) => (n <= 3 ? 500 : 200));
    await sandboxOperations(api).add({ ukprn: A, url: flaky.url, eventTypes: [] });
    await api.infra.catchUp();
    const ids = [await create(api, tokenA), await create(api, tokenA)];
    const patched = await api.request('PATCH', `/api/v2026.1/trainees/${ids[0]}`, tokenA, { data: { middle_names: 'Later' } });
    expect(patched.status).toBe(200);
    const feed = (await feedOf(api, tokenA, 'v2026.1')).filter((c) => ids.includes(c.trainee_id as string));
    await flaky.until(() => flaky.acknowledged().length >= feed.length);
    await new Promise((r) => setTimeout(r, 200));

    expect(flaky.received.slice(0, 3).map((r) => r.status)).toEqual([500, 500, 500]);
    const acknowledged = flaky.acknowledged();
    expect(new Set(acknowledged.map((c) => c.cursor)).size).toBe(acknowledged.length);
    expect([...acknowledged].sort(byCursorOf(feed))).toEqual(feed);
    for (const id of ids) {
      const order = (list: Record<string, unknown>[]) => list.filter((c) => c.trainee_id === id).map((c) => c.cursor);
      expect(order(acknowledged)).toEqual(order(feed));
      // Every attempt, retries included: a trainee's later change is never sent before its earlier one was acknowledged.
      const sent = order(flaky.received.map((r) => JSON.parse(r.body) as Record<string, unknown>)).map((c) => order(feed).indexOf(c));
      expect(sent).toEqual([...sent].sort((a, b) => a - b));
    }
  });

  it('refuses endpoints that point at the internal network, and http://, outside the sandbox', async () => {
    const production = new WebhookOperations(
      api.infra.eventStore,
      api.infra.readModel,
      { allowHttp: false, allowPrivate: false },
      secretsOf(api),
    );
    for (const url of [
      'http://example.org/hooks',
      'https://127.0.0.1/hooks',
      'https://localhost/hooks',
      'https://10.1.2.3/hooks',
      'https://192.168.0.10/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hooks',
      'https://[fd00::1]/hooks',
      'https://[::ffff:127.0.0.1]/hooks',
      'https://user:pass@example.org/hooks',
    ]) {
      await expect(production.add({ ukprn: A, url, eventTypes: [] })).rejects.toBeInstanceOf(WebhookCommandRejected);
    }
    expect((await production.list(A)).map((e) => e.url)).not.toContain('https://127.0.0.1/hooks');
  });

  /**
   * Adds a sandbox endpoint for provider B with a receiver, writes one change, and runs a second
   * dispatcher with `options` (on an outbox of its own, `name`) until it has attempted a delivery;
   * returns the receiver and the attempted deliveries of that dispatcher.
   */
  async function attemptsOfAnotherDispatcher(name: string, options: { policy: { allowPrivate: boolean }; secrets: SealedSecrets }) {
    const target = await receiver();
    const endpoint = await sandboxOperations(api).add({ ukprn: B, url: target.url, eventTypes: [] });
    await create(api, tokenB);
    await api.infra.catchUp();
    const outbox = new SqliteWebhookOutbox(`${api.dataDir}/webhooks-${name}.sqlite`);
    const dispatcher = new WebhookDispatcher(api.infra, api.infra.readModel, outbox, quiet, {
      ...options,
      projectedStreams: PROJECTED_STREAMS,
      cursors: new CursorCodec(Buffer.alloc(32, 1)),
      retryBaseMs: 10_000,
      pollMs: 20,
    });
    await dispatcher.start();
    const attempted = async () => (await outbox.deliveries(endpoint.endpoint_id, 10)).filter((d) => d.attempts > 0);
    const deadline = Date.now() + 5_000;
    while ((await attempted()).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await dispatcher.stop();
    const deliveries = await attempted();
    outbox.close();
    return { target, deliveries };
  }

  it('never delivers to a loopback address when the dispatcher runs outside the sandbox, even for an endpoint stored as allowed', async () => {
    const { target, deliveries } = await attemptsOfAnotherDispatcher('production', {
      policy: { allowPrivate: false },
      secrets: secretsOf(api),
    });
    expect(deliveries.length).toBeGreaterThan(0);
    for (const d of deliveries) {
      expect(d).toMatchObject({ status: 'pending', last_status: null, delivered_at: null });
      expect(d.last_error).toMatch(/127\.0\.0\.1, a loopback, private or reserved address/);
    }
    // The sandbox's own dispatcher delivers them; the production one reached nothing.
    expect(target.received.every((r) => r.status !== null)).toBe(true);
  });

  it("signs nothing with a secret it cannot open (another service key's): the attempts fail and say why", async () => {
    const { deliveries } = await attemptsOfAnotherDispatcher('other-key', {
      policy: { allowPrivate: true },
      secrets: new SealedSecrets(Buffer.alloc(32, 3)),
    });
    expect(deliveries.length).toBeGreaterThan(0);
    // No request was made: the attempt ended at the secret, with no HTTP status.
    for (const d of deliveries)
      expect(d).toMatchObject({ last_status: null, last_error: expect.stringMatching(/sealed with another service key/) });
  });
});

describe('webhooks: giving up (docs/change-feed.md "Retries")', () => {
  it('disables an endpoint failing past the give-up time, abandons its deliveries, and keeps the changes in the feed', async () => {
    // Give-up time well above one attempt's duration: a single attempt slower than it (a loaded
    // machine; 1 s was once exceeded beside a busy suite) would disable the endpoint before any
    // retry, which is right but not what this checks.
    const api = await RunningApi.start({ webhooks: { retryBaseMs: 20, retryMaxMs: 50, giveUpAfterMs: 3_000 } });
    const down = await WebhookReceiver.start(() => 503);
    try {
      const token = await api.providerToken(A);
      const ops = sandboxOperations(api);
      const endpoint = await ops.add({ ukprn: A, url: down.url, eventTypes: [] });
      await api.infra.catchUp();
      const id = await create(api, token);
      const deadline = Date.now() + 20_000;
      let status = 'active';
      while (status === 'active' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        status = (await ops.list(A)).find((e) => e.endpoint_id === endpoint.endpoint_id)!.status;
      }
      expect(status).toBe('disabled');
      const [listed] = (await ops.list(A)).filter((e) => e.endpoint_id === endpoint.endpoint_id);
      expect(listed.disabled_reason).toMatch(/failing since .* attempts; last: HTTP 503/);
      expect(down.received.length).toBeGreaterThan(1);
      // The dispatcher abandons the pending deliveries when it reads the endpoint's WebhookEndpointDisabled.
      const outbox = SqliteWebhookOutbox.open(api.dataDir);
      const abandoned = async () => (await outbox.deliveries(endpoint.endpoint_id, 100)).every((d) => d.status === 'abandoned');
      while (!(await abandoned()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const deliveries = await outbox.deliveries(endpoint.endpoint_id, 100);
      outbox.close();
      expect(deliveries.length).toBeGreaterThan(0);
      expect(deliveries.every((d) => d.status === 'abandoned' && d.delivered_at === null)).toBe(true);
      expect((await feedOf(api, token, 'v2026.1')).filter((c) => c.trainee_id === id).length).toBeGreaterThan(0);
    } finally {
      await api.close();
      await down.close();
    }
  });
});

function byCursorOf(feed: Record<string, unknown>[]): (a: Record<string, unknown>, b: Record<string, unknown>) => number {
  const order = feed.map((c) => c.cursor);
  return (a, b) => order.indexOf(a.cursor) - order.indexOf(b.cursor);
}
