import type { NewWebhookDelivery, WebhookEndpointRecord, WebhookOutbox } from '@app/read-model';

/** What the contract needs from an adapter: an outbox, another instance on the same data, and the cleanup. */
export interface WebhookOutboxContext {
  outbox: WebhookOutbox;
  reopen(): Promise<WebhookOutbox>;
  cleanup(): Promise<void>;
}

const T0 = 1_800_000_000_000;

function endpoint(id: string, overrides: Partial<WebhookEndpointRecord> = {}): WebhookEndpointRecord {
  return {
    endpoint_id: id,
    ukprn: '10000001',
    url: `https://hooks.example.org/${id}`,
    event_types: ['TraineeUpdated'],
    api_version: 'v2026.1',
    secret: 'whsec_x',
    status: 'active',
    added_position: 1,
    disabled_reason: null,
    ...overrides,
  };
}

function delivery(endpointId: string, position: number, traineeId: string, at = T0): NewWebhookDelivery {
  return {
    delivery_id: `${endpointId}.${position}`,
    endpoint_id: endpointId,
    position,
    trainee_id: traineeId,
    message_id: `msg_${endpointId}_${position}`,
    payload: `{"p":${position}}`,
    next_attempt_at: at,
  };
}

/**
 * Registers the webhook outbox contract for one adapter (docs/change-feed.md "How deliveries are
 * kept"; the port's documentation in libs/read-model/src/webhooks/webhook-outbox.port.ts).
 */
export function describeWebhookOutboxContract(name: string, factory: () => Promise<WebhookOutboxContext>): void {
  describe(`Webhook outbox contract: ${name}`, () => {
    let ctx: WebhookOutboxContext;
    let outbox: WebhookOutbox;

    beforeEach(async () => {
      ctx = await factory();
      outbox = ctx.outbox;
    });

    afterEach(async () => {
      await ctx.cleanup();
    });

    const ingest = (deliveries: NewWebhookDelivery[], checkpoint: number, extra: Partial<Parameters<WebhookOutbox['ingest']>[0]> = {}) =>
      outbox.ingest({ endpoints: [], deliveries, abandonFor: [], at: T0, checkpoint, ...extra });

    it('stores endpoints and deliveries, and moves the checkpoint only forward; a repeated ingest adds nothing', async () => {
      expect(await outbox.checkpoint()).toBe(0);
      await ingest([delivery('e1', 5, 'A')], 7, { endpoints: [endpoint('e1')] });
      await outbox.recordAttempt('e1.5', { delivered: false, at: T0 + 1, status: 500, error: 'HTTP 500', next_attempt_at: T0 + 100 });
      await ingest([delivery('e1', 5, 'A')], 3);
      expect(await outbox.checkpoint()).toBe(7);
      expect(await outbox.endpoints()).toEqual([endpoint('e1')]);
      const [stored] = await outbox.deliveries('e1', 10);
      expect(stored).toMatchObject({ delivery_id: 'e1.5', status: 'pending', attempts: 1, next_attempt_at: T0 + 100 });
      await ingest([], 9, { endpoints: [endpoint('e1', { status: 'disabled', disabled_reason: 'gone' })] });
      expect(await outbox.endpoints()).toEqual([endpoint('e1', { status: 'disabled', disabled_reason: 'gone' })]);
    });

    it("hands out only the oldest pending delivery of each (endpoint, trainee), when due; others' trainees go on", async () => {
      await ingest([delivery('e1', 1, 'A'), delivery('e1', 2, 'A'), delivery('e1', 3, 'B', T0 + 50), delivery('e2', 4, 'A')], 4);
      expect((await outbox.due(T0, 10)).map((d) => d.delivery_id)).toEqual(['e1.1', 'e2.4']);
      expect((await outbox.due(T0 + 50, 10)).map((d) => d.delivery_id)).toEqual(['e1.1', 'e1.3', 'e2.4']);
      expect((await outbox.due(T0 + 50, 1)).map((d) => d.delivery_id)).toEqual(['e1.1']);
      await outbox.recordAttempt('e1.1', { delivered: true, at: T0 + 60, status: 200 });
      expect((await outbox.due(T0 + 60, 10)).map((d) => d.delivery_id)).toEqual(['e1.2', 'e1.3', 'e2.4']);
      expect(await outbox.nextDueAt()).toBe(T0);
    });

    it('keeps the bookkeeping of attempts: the first attempt time, the last answer, the next try; a delivered one is final', async () => {
      await ingest([delivery('e1', 1, 'A')], 1);
      await outbox.recordAttempt('e1.1', { delivered: false, at: T0 + 10, status: null, error: 'ECONNREFUSED', next_attempt_at: T0 + 20 });
      expect(await outbox.due(T0 + 19, 10)).toEqual([]);
      expect(await outbox.nextDueAt()).toBe(T0 + 20);
      await outbox.recordAttempt('e1.1', { delivered: false, at: T0 + 20, status: 503, error: 'HTTP 503', next_attempt_at: T0 + 40 });
      let [d] = await outbox.deliveries('e1', 1);
      expect(d).toMatchObject({
        attempts: 2,
        first_attempt_at: T0 + 10,
        last_attempt_at: T0 + 20,
        last_status: 503,
        last_error: 'HTTP 503',
      });
      await outbox.recordAttempt('e1.1', { delivered: true, at: T0 + 40, status: 204 });
      await outbox.recordAttempt('e1.1', { delivered: false, at: T0 + 50, status: 500, error: 'HTTP 500', next_attempt_at: T0 + 60 });
      [d] = await outbox.deliveries('e1', 1);
      expect(d).toMatchObject({
        status: 'delivered',
        attempts: 3,
        first_attempt_at: T0 + 10,
        last_status: 204,
        last_error: null,
        delivered_at: T0 + 40,
      });
      expect(await outbox.nextDueAt()).toBeNull();
    });

    it("abandons only the named endpoint's pending deliveries, and lists an endpoint's deliveries newest first", async () => {
      await ingest([delivery('e1', 1, 'A'), delivery('e1', 2, 'B'), delivery('e2', 3, 'A')], 3);
      await outbox.recordAttempt('e1.1', { delivered: true, at: T0, status: 200 });
      await ingest([], 4, { abandonFor: ['e1'] });
      expect((await outbox.deliveries('e1', 10)).map((d) => [d.delivery_id, d.status])).toEqual([
        ['e1.2', 'abandoned'],
        ['e1.1', 'delivered'],
      ]);
      expect((await outbox.deliveries('e1', 1)).map((d) => d.delivery_id)).toEqual(['e1.2']);
      expect((await outbox.due(T0, 10)).map((d) => d.delivery_id)).toEqual(['e2.3']);
    });

    it('keeps everything for another instance on the same data (a restart)', async () => {
      await ingest([delivery('e1', 1, 'A')], 5, { endpoints: [endpoint('e1')] });
      const again = await ctx.reopen();
      expect(await again.checkpoint()).toBe(5);
      expect(await again.endpoints()).toEqual([endpoint('e1')]);
      expect((await again.due(T0, 10)).map((d) => d.delivery_id)).toEqual(['e1.1']);
    });
  });
}
