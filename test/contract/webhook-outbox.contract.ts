/**
 * The contract every webhook outbox passes (docs/change-feed.md "Webhooks"; the port in
 * libs/webhooks/delivery/webhook-outbox.port.ts): ingests stored once and the checkpoint
 * only forward, deliveries handed out when due and in order per (endpoint, trainee), each attempt
 * recorded while pending only, an endpoint's pending deliveries abandoned when it is disabled, and
 * all of it kept across a restart. Times are passed in, so retries are tested without waiting.
 */
import { logPosition } from '@app/event-sourcing';
import type { NewWebhookDelivery, WebhookDelivery, WebhookEndpointRecord, WebhookOutbox } from '@app/webhooks/delivery';

/** An outbox on fresh storage; `reopen` opens another instance on the same storage (as a restarted process would). */
export interface WebhookOutboxContext {
  outbox: WebhookOutbox;
  reopen(): Promise<WebhookOutbox>;
  cleanup(): Promise<void>;
}

type Ingest = Parameters<WebhookOutbox['ingest']>[0];
type Current = () => WebhookOutboxContext;

const T0 = 1_800_000_000_000;

function endpoint(id: string, overrides: Partial<WebhookEndpointRecord> = {}): WebhookEndpointRecord {
  return {
    endpoint_id: id,
    ukprn: '10000001',
    url: `https://hooks.example.org/${id}`,
    event_types: ['TraineeUpdated', 'TrnIssued'],
    api_version: 'v2026.1',
    secret: `whsec_${id}`,
    status: 'active',
    added_position: logPosition(1),
    disabled_reason: null,
    ...overrides,
  };
}

function delivery(endpointId: string, position: number, traineeId: string, at = T0): NewWebhookDelivery {
  return {
    delivery_id: `${endpointId}.${position}`,
    endpoint_id: endpointId,
    position: logPosition(position),
    trainee_id: traineeId,
    message_id: `msg_${endpointId}_${position}`,
    payload: `{"position":${position},"trainee_id":"${traineeId}"}`,
    next_attempt_at: at,
  };
}

/** A delivery as first stored: pending, never attempted. */
function pending(d: NewWebhookDelivery): WebhookDelivery {
  const none = { first_attempt_at: null, last_attempt_at: null, last_status: null, last_error: null, delivered_at: null };
  return { ...d, status: 'pending', attempts: 0, ...none };
}

/** Ingests `batch`, its checkpoint given as the number a store would have given as a position. */
function ingest(outbox: WebhookOutbox, batch: Partial<Omit<Ingest, 'checkpoint'>> & { checkpoint: number }): Promise<void> {
  return outbox.ingest({ endpoints: [], deliveries: [], abandonFor: [], at: T0, ...batch, checkpoint: logPosition(batch.checkpoint) });
}

async function dueIds(outbox: WebhookOutbox, now: number, limit = 50): Promise<string[]> {
  return (await outbox.due(now, limit)).map((d) => d.delivery_id);
}

async function stored(outbox: WebhookOutbox, deliveryId: string): Promise<WebhookDelivery | undefined> {
  return (await outbox.deliveries(deliveryId.split('.')[0], 10_000)).find((d) => d.delivery_id === deliveryId);
}

const failure = (at: number, next: number, status: number | null = 503, error = `HTTP ${status}`) =>
  ({ delivered: false, at, status, error, next_attempt_at: next }) as const;

/**
 * Registers the webhook outbox contract (docs/change-feed.md "Webhooks") for one adapter; `factory`
 * gives each test fresh storage, and its `cleanup` runs after the test.
 */
export function describeWebhookOutboxContract(name: string, factory: () => Promise<WebhookOutboxContext>): void {
  describe(`Webhook outbox contract: ${name}`, () => {
    let ctx: WebhookOutboxContext | null = null;
    beforeEach(async () => {
      ctx = await factory();
    });
    afterEach(async () => {
      await ctx?.cleanup();
      ctx = null;
    });
    const current: Current = () => {
      if (!ctx) throw new Error('no outbox: the factory failed');
      return ctx;
    };
    describeIngest(current);
    describeDue(current);
    describeAttempts(current);
    describeAbandonAndListing(current);
    describeRestart(current);
    describeReset(current);
  });
}

function describeIngest(current: Current): void {
  it('stores endpoints and deliveries, replaces an endpoint by id, and moves the checkpoint only forward', async () => {
    const { outbox } = current();
    expect(await outbox.checkpoint()).toBe(0);
    expect(await outbox.endpoints()).toEqual([]);
    const e2 = endpoint('e2', { added_position: logPosition(2), ukprn: '10000002', event_types: [] });
    await ingest(outbox, { endpoints: [endpoint('e1'), e2], deliveries: [delivery('e1', 5, 'A'), delivery('e2', 5, 'A')], checkpoint: 7 });
    expect(await outbox.checkpoint()).toBe(7);
    expect(await outbox.endpoints()).toEqual([endpoint('e1'), e2]);
    expect(await outbox.deliveries('e1', 10)).toEqual([pending(delivery('e1', 5, 'A'))]);
    expect(await outbox.deliveries('e2', 10)).toEqual([pending(delivery('e2', 5, 'A'))]);

    await ingest(outbox, { checkpoint: 3 });
    expect(await outbox.checkpoint()).toBe(7);
    const disabled = endpoint('e1', { status: 'disabled', disabled_reason: 'receiver gone' });
    await ingest(outbox, { endpoints: [disabled], checkpoint: 9 });
    expect(await outbox.checkpoint()).toBe(9);
    expect(await outbox.endpoints()).toEqual([disabled, e2]);
  });

  it('a repeated ingest adds no delivery and keeps the stored one as it is (attempts, next attempt, payload)', async () => {
    const { outbox } = current();
    await ingest(outbox, { deliveries: [delivery('e1', 5, 'A')], checkpoint: 5 });
    await outbox.recordAttempt('e1.5', failure(T0 + 1, T0 + 100));
    await ingest(outbox, { deliveries: [{ ...delivery('e1', 5, 'A'), payload: '{"other":true}' }, delivery('e1', 6, 'A')], checkpoint: 6 });
    const all = await outbox.deliveries('e1', 10);
    expect(all.map((d) => d.delivery_id)).toEqual(['e1.6', 'e1.5']);
    expect(all[1]).toEqual({
      ...pending(delivery('e1', 5, 'A')),
      attempts: 1,
      first_attempt_at: T0 + 1,
      last_attempt_at: T0 + 1,
      last_status: 503,
      last_error: 'HTTP 503',
      next_attempt_at: T0 + 100,
    });
  });
}

function describeDue(current: Current): void {
  it('hands out a delivery once next_attempt_at has come (inclusive), oldest position first, up to the limit', async () => {
    const { outbox } = current();
    await ingest(outbox, { deliveries: [delivery('e1', 1, 'A', T0 + 50), delivery('e1', 2, 'B'), delivery('e1', 3, 'C')], checkpoint: 3 });
    expect(await dueIds(outbox, T0 - 1)).toEqual([]);
    expect(await dueIds(outbox, T0 + 49)).toEqual(['e1.2', 'e1.3']);
    expect(await dueIds(outbox, T0 + 50)).toEqual(['e1.1', 'e1.2', 'e1.3']);
    expect(await dueIds(outbox, T0 + 50, 2)).toEqual(['e1.1', 'e1.2']);
    expect(await outbox.due(T0 + 50, 1)).toEqual([pending(delivery('e1', 1, 'A', T0 + 50))]);
  });

  it('hands out only the oldest pending delivery of each (endpoint, trainee); other trainees and endpoints go on', async () => {
    const { outbox } = current();
    const deliveries = [
      delivery('e1', 1, 'A'),
      delivery('e1', 2, 'A'),
      delivery('e1', 3, 'B'),
      delivery('e2', 4, 'A'),
      delivery('e1', 5, 'A'),
    ];
    await ingest(outbox, { deliveries, checkpoint: 5 });
    expect(await dueIds(outbox, T0)).toEqual(['e1.1', 'e1.3', 'e2.4']);
    // A failed head holds its trainee's later changes back, though they are due.
    await outbox.recordAttempt('e1.1', failure(T0 + 1, T0 + 1_000));
    expect(await dueIds(outbox, T0 + 10)).toEqual(['e1.3', 'e2.4']);
    await outbox.recordAttempt('e1.1', { delivered: true, at: T0 + 1_000, status: 200 });
    expect(await dueIds(outbox, T0 + 1_000)).toEqual(['e1.2', 'e1.3', 'e2.4']);
    await outbox.recordAttempt('e1.2', { delivered: true, at: T0 + 1_001, status: 204 });
    await outbox.recordAttempt('e1.3', { delivered: true, at: T0 + 1_001, status: 204 });
    expect(await dueIds(outbox, T0 + 1_001)).toEqual(['e2.4', 'e1.5']);
  });

  it('finds a due delivery behind many held-back ones of another trainee', async () => {
    const { outbox } = current();
    const held = Array.from({ length: 300 }, (_, i) => delivery('e1', i + 1, 'A'));
    await ingest(outbox, { deliveries: [...held, delivery('e1', 301, 'B'), delivery('e1', 302, 'B')], checkpoint: 302 });
    expect(await dueIds(outbox, T0, 2)).toEqual(['e1.1', 'e1.301']);
    await outbox.recordAttempt('e1.1', failure(T0 + 1, T0 + 60_000));
    expect(await dueIds(outbox, T0 + 2, 2)).toEqual(['e1.301']);
    expect(await dueIds(outbox, T0 + 60_000, 1)).toEqual(['e1.1']);
  });

  it('nextDueAt: the earliest next attempt of a pending delivery, due or not; null when none is pending', async () => {
    const { outbox } = current();
    expect(await outbox.nextDueAt()).toBeNull();
    await ingest(outbox, {
      deliveries: [delivery('e1', 1, 'A', T0 + 30), delivery('e1', 2, 'B', T0 + 10), delivery('e2', 3, 'C', T0 + 20)],
      checkpoint: 3,
    });
    expect(await outbox.nextDueAt()).toBe(T0 + 10);
    await outbox.recordAttempt('e1.2', { delivered: true, at: T0 + 10, status: 200 });
    expect(await outbox.nextDueAt()).toBe(T0 + 20);
    await outbox.recordAttempt('e1.1', failure(T0 + 30, T0 + 90));
    await ingest(outbox, { abandonFor: ['e2'], checkpoint: 4 });
    expect(await outbox.nextDueAt()).toBe(T0 + 90);
    await outbox.recordAttempt('e1.1', { delivered: true, at: T0 + 90, status: 200 });
    expect(await outbox.nextDueAt()).toBeNull();
  });

  it('pendingCount: deliveries neither delivered nor abandoned, due or not', async () => {
    const { outbox } = current();
    expect(await outbox.pendingCount()).toBe(0);
    await ingest(outbox, {
      deliveries: [delivery('e1', 1, 'A', T0 + 30), delivery('e1', 2, 'B'), delivery('e2', 3, 'C')],
      checkpoint: 3,
    });
    expect(await outbox.pendingCount()).toBe(3);
    await outbox.recordAttempt('e1.2', { delivered: true, at: T0 + 10, status: 200 });
    await outbox.recordAttempt('e1.1', failure(T0 + 30, T0 + 90));
    expect(await outbox.pendingCount()).toBe(2);
    await ingest(outbox, { abandonFor: ['e2'], checkpoint: 4 });
    expect(await outbox.pendingCount()).toBe(1);
  });
}

function describeAttempts(current: Current): void {
  it('records failed attempts: attempts, first attempt kept, last status and error, next attempt', async () => {
    const { outbox } = current();
    await ingest(outbox, { deliveries: [delivery('e1', 1, 'A')], checkpoint: 1 });
    await outbox.recordAttempt('e1.1', failure(T0 + 10, T0 + 20, null, '$connect ECONNREFUSED 10.0.0.5:443'));
    expect(await stored(outbox, 'e1.1')).toEqual({
      ...pending(delivery('e1', 1, 'A')),
      attempts: 1,
      first_attempt_at: T0 + 10,
      last_attempt_at: T0 + 10,
      last_status: null,
      last_error: '$connect ECONNREFUSED 10.0.0.5:443',
      next_attempt_at: T0 + 20,
    });
    expect(await dueIds(outbox, T0 + 19)).toEqual([]);
    expect(await dueIds(outbox, T0 + 20)).toEqual(['e1.1']);
    await outbox.recordAttempt('e1.1', failure(T0 + 25, T0 + 45, 500));
    expect(await stored(outbox, 'e1.1')).toMatchObject({
      status: 'pending',
      attempts: 2,
      first_attempt_at: T0 + 10,
      last_attempt_at: T0 + 25,
      last_status: 500,
      last_error: 'HTTP 500',
      next_attempt_at: T0 + 45,
      delivered_at: null,
    });
  });

  it('records a success as final: delivered, error cleared; a later attempt changes nothing', async () => {
    const { outbox } = current();
    await ingest(outbox, { deliveries: [delivery('e1', 1, 'A')], checkpoint: 1 });
    await outbox.recordAttempt('e1.1', failure(T0 + 10, T0 + 20, 502));
    await outbox.recordAttempt('e1.1', { delivered: true, at: T0 + 21, status: 204 });
    const delivered: WebhookDelivery = {
      ...pending(delivery('e1', 1, 'A')),
      status: 'delivered',
      attempts: 2,
      first_attempt_at: T0 + 10,
      last_attempt_at: T0 + 21,
      last_status: 204,
      last_error: null,
      next_attempt_at: T0 + 20,
      delivered_at: T0 + 21,
    };
    expect(await stored(outbox, 'e1.1')).toEqual(delivered);
    await outbox.recordAttempt('e1.1', failure(T0 + 30, T0 + 40, 500));
    await outbox.recordAttempt('e1.1', { delivered: true, at: T0 + 50, status: 200 });
    expect(await stored(outbox, 'e1.1')).toEqual(delivered);
    expect(await dueIds(outbox, T0 + 100)).toEqual([]);
  });

  it('an attempt of an unknown delivery is ignored', async () => {
    const { outbox } = current();
    await ingest(outbox, { deliveries: [delivery('e1', 1, 'A')], checkpoint: 1 });
    await outbox.recordAttempt('e1.404', { delivered: true, at: T0 + 1, status: 200 });
    expect(await outbox.deliveries('e1', 10)).toEqual([pending(delivery('e1', 1, 'A'))]);
  });
}

function describeAbandonAndListing(current: Current): void {
  it("abandons only the named endpoint's pending deliveries, keeping their attempts and last attempt time", async () => {
    const { outbox } = current();
    const deliveries = [delivery('e1', 1, 'A'), delivery('e1', 2, 'B'), delivery('e1', 3, 'C'), delivery('e2', 4, 'A')];
    await ingest(outbox, { endpoints: [endpoint('e1'), endpoint('e2')], deliveries, checkpoint: 4 });
    await outbox.recordAttempt('e1.1', { delivered: true, at: T0 + 1, status: 200 });
    await outbox.recordAttempt('e1.2', failure(T0 + 2, T0 + 50, 500));
    await ingest(outbox, {
      endpoints: [endpoint('e1', { status: 'disabled', disabled_reason: 'failing' })],
      abandonFor: ['e1'],
      at: T0 + 9,
      checkpoint: 5,
    });
    expect(await outbox.deliveries('e1', 10)).toEqual([
      { ...pending(delivery('e1', 3, 'C')), status: 'abandoned', last_error: 'endpoint disabled' },
      {
        ...pending(delivery('e1', 2, 'B')),
        status: 'abandoned',
        attempts: 1,
        first_attempt_at: T0 + 2,
        last_attempt_at: T0 + 2,
        last_status: 500,
        last_error: 'endpoint disabled',
        next_attempt_at: T0 + 50,
      },
      {
        ...pending(delivery('e1', 1, 'A')),
        status: 'delivered',
        attempts: 1,
        first_attempt_at: T0 + 1,
        last_attempt_at: T0 + 1,
        last_status: 200,
        delivered_at: T0 + 1,
      },
    ]);
    expect(await outbox.deliveries('e2', 10)).toEqual([pending(delivery('e2', 4, 'A'))]);
    expect(await dueIds(outbox, T0 + 100)).toEqual(['e2.4']);
    await outbox.recordAttempt('e1.3', { delivered: true, at: T0 + 100, status: 200 });
    expect(await stored(outbox, 'e1.3')).toMatchObject({ status: 'abandoned', attempts: 0, delivered_at: null });
  });

  it("forgets an erased trainee's TRN and personal field names in its deliveries' payloads, sent or not, and no one else's", async () => {
    const { outbox } = current();
    const withTrn = (d: NewWebhookDelivery): NewWebhookDelivery => ({
      ...d,
      payload: JSON.stringify({
        trainee_id: d.trainee_id,
        changed_fields: ['first_names', 'course_subject_one', 'disability3'],
        trn: '7654321',
      }),
    });
    const [a1, a2, b1] = [withTrn(delivery('e1', 5, 'A')), withTrn(delivery('e1', 6, 'A')), withTrn(delivery('e1', 7, 'B'))];
    await ingest(outbox, { endpoints: [endpoint('e1')], deliveries: [a1, a2, b1], checkpoint: 7 });
    await outbox.recordAttempt(a1.delivery_id, { delivered: true, at: T0 + 1, status: 200 });
    expect(await outbox.forgetTrainee('A')).toBe(2);
    const payloads = Object.fromEntries((await outbox.deliveries('e1', 10)).map((d) => [d.delivery_id, JSON.parse(d.payload)]));
    expect(payloads).toEqual({
      [a1.delivery_id]: { trainee_id: 'A', changed_fields: ['course_subject_one'], trn: null },
      [a2.delivery_id]: { trainee_id: 'A', changed_fields: ['course_subject_one'], trn: null },
      [b1.delivery_id]: { trainee_id: 'B', changed_fields: ['first_names', 'course_subject_one', 'disability3'], trn: '7654321' },
    });
    expect(await outbox.forgetTrainee('A')).toBe(0);
  });

  it("lists an endpoint's deliveries newest position first, at most the limit", async () => {
    const { outbox } = current();
    const deliveries = [delivery('e1', 1, 'A'), delivery('e1', 3, 'B'), delivery('e2', 4, 'A'), delivery('e1', 5, 'A')];
    await ingest(outbox, { deliveries, checkpoint: 5 });
    expect((await outbox.deliveries('e1', 10)).map((d) => d.delivery_id)).toEqual(['e1.5', 'e1.3', 'e1.1']);
    expect((await outbox.deliveries('e1', 2)).map((d) => d.delivery_id)).toEqual(['e1.5', 'e1.3']);
    expect((await outbox.deliveries('e2', 10)).map((d) => d.delivery_id)).toEqual(['e2.4']);
    expect(await outbox.deliveries('e3', 10)).toEqual([]);
  });
}

function describeRestart(current: Current): void {
  it('keeps everything for an instance opened after the first is closed (a restart)', async () => {
    const ctx = current();
    const deliveries = [delivery('e1', 1, 'A'), delivery('e1', 2, 'A'), delivery('e1', 3, 'B'), delivery('e2', 4, 'C')];
    const endpoints = [endpoint('e1'), endpoint('e2', { added_position: logPosition(2) })];
    await ingest(ctx.outbox, { endpoints, deliveries, checkpoint: 6 });
    await ctx.outbox.recordAttempt('e1.1', { delivered: true, at: T0 + 1, status: 200 });
    await ctx.outbox.recordAttempt('e1.3', failure(T0 + 2, T0 + 30, 429));
    await ingest(ctx.outbox, { abandonFor: ['e2'], checkpoint: 7 });
    const before = { e1: await ctx.outbox.deliveries('e1', 10), e2: await ctx.outbox.deliveries('e2', 10) };
    await ctx.outbox.close();

    const again = await ctx.reopen();
    expect(await again.checkpoint()).toBe(7);
    expect(await again.endpoints()).toEqual(endpoints);
    expect({ e1: await again.deliveries('e1', 10), e2: await again.deliveries('e2', 10) }).toEqual(before);
    expect(before.e1.map((d) => d.status)).toEqual(['pending', 'pending', 'delivered']);
    expect(await again.nextDueAt()).toBe(T0);
    expect(await dueIds(again, T0 + 30)).toEqual(['e1.2', 'e1.3']);
    await again.recordAttempt('e1.3', { delivered: true, at: T0 + 31, status: 200 });
    expect(await stored(again, 'e1.3')).toMatchObject({ status: 'delivered', attempts: 2, first_attempt_at: T0 + 2 });
  });
}

function describeReset(current: Current): void {
  it('resetTo replaces the endpoints, drops every delivery after the checkpoint, sent or not, and sets the checkpoint back', async () => {
    const { outbox } = current();
    const deliveries = [delivery('e1', 3, 'A'), delivery('e1', 5, 'A'), delivery('e2', 8, 'B'), delivery('e1', 9, 'C')];
    await ingest(outbox, { endpoints: [endpoint('e1'), endpoint('e2', { added_position: logPosition(6) })], deliveries, checkpoint: 9 });
    await outbox.recordAttempt('e1.3', { delivered: true, at: T0 + 1, status: 200 });
    await outbox.recordAttempt('e2.8', { delivered: true, at: T0 + 1, status: 200 });
    const e1 = endpoint('e1', { secret: 'sealed2.1.as-the-log-holds-it' });

    expect(await outbox.resetTo({ checkpoint: logPosition(5), endpoints: [e1] })).toBe(2);
    expect(await outbox.checkpoint()).toBe(5);
    expect(await outbox.endpoints()).toEqual([e1]);
    expect((await outbox.deliveries('e1', 10)).map((d) => [d.delivery_id, d.status])).toEqual([
      ['e1.5', 'pending'],
      ['e1.3', 'delivered'],
    ]);
    expect(await outbox.deliveries('e2', 10)).toEqual([]);
    expect(await outbox.pendingCount()).toBe(1);
    // Ingests go on from the checkpoint set.
    await ingest(outbox, { deliveries: [delivery('e1', 7, 'A')], checkpoint: 7 });
    expect(await outbox.checkpoint()).toBe(7);
    expect(await outbox.resetTo({ checkpoint: logPosition(7), endpoints: [] })).toBe(0);
    expect(await outbox.endpoints()).toEqual([]);
  });
}
