import type { ChangeFeed, CursorCodec, StoredChange } from '@app/changes';
import { decodeWebhookEvent, WEBHOOK_STREAM_PREFIX } from '@app/webhooks/decider';
import {
  earlierPosition,
  laterPosition,
  LOG_START,
  type EventFilter,
  type EventStore,
  type LogPosition,
  type RecordedEvent,
  type StoredLog,
} from '@app/event-sourcing';
import type { NewWebhookDelivery, WebhookDelivery, WebhookEndpointRecord, WebhookOutbox } from './webhook-outbox.port';
import { applyEndpointEvent, deliveryOf, receives } from './endpoint-deliveries';
import { type AddressPolicy, disableWebhookEndpoint, type SealedSecrets } from '@app/webhooks/write';
import { sendWebhook } from './webhook-sender';

/** How far the feed is whole ({@link WebhookDispatcher} `wholeUpTo`): positions the store gave. */
interface WholeFeed {
  /** The newest position known to be whole: the projector's checkpoint, or the log's head when `before` is null. */
  reached: LogPosition;
  /** Exclusive: the first event the projector has not applied yet; null when it has applied all up to the head. */
  before: LogPosition | null;
}

/** What the dispatcher reads the changes from: the change feed, whole up to `checkpoint()`. */
export type ChangeSource = Pick<ChangeFeed, 'changesBetween'> & { checkpoint(): Promise<LogPosition> };

export interface DispatcherLogger {
  info(message: string, context?: Record<string, unknown>): void;
  warn(message: string, context?: Record<string, unknown>): void;
  error(message: string, context?: Record<string, unknown>): void;
}

/** How deliveries are made and retried (docs/change-feed.md "Retries"; the defaults in {@link DISPATCHER_DEFAULTS}). */
export interface DispatcherOptions {
  /** Where deliveries may go: private addresses only in the sandbox. */
  policy: AddressPolicy;
  /** The streams the projector applies (its filter): the feed is whole up to the first of their events it has not applied. */
  projectedStreams: EventFilter;
  /** The feed's cursors: each delivery's `cursor` is sealed for its endpoint's provider, as `GET /changes` answers it. */
  cursors: CursorCodec;
  /** Opens each endpoint's signing secret (stored sealed) when an attempt is signed. */
  secrets: SealedSecrets;
  /** A whole attempt's deadline, ms. */
  timeoutMs: number;
  /** The wait after the first failed attempt, ms; it doubles after each failure. */
  retryBaseMs: number;
  /** The longest wait between two attempts, ms. */
  retryMaxMs: number;
  /** How long a delivery is retried from its first attempt before its endpoint is disabled, ms. */
  giveUpAfterMs: number;
  /** Attempts in flight at once. */
  concurrency: number;
  /** The wait when there is nothing to do, ms. */
  pollMs: number;
  /** Log events and changes read per ingest step. */
  batchSize: number;
  /** The clock (tests move it); default the system's. */
  clock?: () => Date;
  /** Told of each attempt's outcome and of each endpoint disabled (the metrics; must not throw). */
  observer?: { attempted(delivered: boolean): void; endpointDisabled(): void };
}

/** The defaults: 10 s an attempt, retries from 5 s doubling up to 1 h, for 3 days; 8 at once. */
export const DISPATCHER_DEFAULTS: Omit<DispatcherOptions, 'policy' | 'projectedStreams' | 'cursors' | 'secrets'> = {
  timeoutMs: 10_000,
  retryBaseMs: 5_000,
  retryMaxMs: 3_600_000,
  giveUpAfterMs: 3 * 24 * 3_600_000,
  concurrency: 8,
  pollMs: 500,
  batchSize: 500,
};

/**
 * How often an ingest step that has nothing to store but the checkpoint stores it, ms: the outbox's
 * commit syncs the disk, which a write without webhooks should not pay (docs/change-feed.md "How
 * deliveries are kept").
 */
export const CHECKPOINT_SAVE_MS = 5_000;

/**
 * The webhook dispatcher (docs/change-feed.md "Webhooks"). It follows the log from its own
 * checkpoint, as the registry process manager does: the endpoints' events (`webhook-…` streams)
 * and the change feed's entries (the trainee events, as the projector has made them), merged in
 * position order and only as far as the projector has applied the log. Each change becomes one
 * delivery per active endpoint of the trainee's provider that asked for its type and was added before it;
 * deliveries, endpoints and the checkpoint are stored together ({@link WebhookOutbox.ingest}), so
 * a restart neither loses nor repeats an enqueue. Deliveries are sent in order per (endpoint,
 * trainee), several at once, each signed (Standard Webhooks), retried with exponential back-off;
 * after `giveUpAfterMs` of failures the endpoint is disabled by an event, and its pending deliveries
 * are abandoned (the changes stay in the feed). An attempt's outcome is stored when it ends, so a
 * crash repeats at most the attempts in flight. Nothing here blocks the API: all of it is
 * asynchronous I/O, and a failure is logged and retried, never thrown. It reads the log as stored
 * (`log.storedLog`: positions and the endpoints' events, no personal value) and records a disabled
 * endpoint through `log.eventStore`.
 */
export class WebhookDispatcher {
  private readonly options: DispatcherOptions;
  private endpoints = new Map<string, WebhookEndpointRecord>();
  private position = LOG_START;
  private stopped = true;
  private loop: Promise<void> | null = null;
  private readonly inFlight = new Map<string, Promise<void>>();
  private wakeUp: (() => void) | null = null;
  private attempts = 0;
  private waitingForFeed = false;
  /** The bound of a whole feed (see {@link wholeUpTo}) below which every event was ingested; null when none is. */
  private coveredBefore: LogPosition | null = null;
  /** The position last stored in the outbox, and when (ms since the epoch; see {@link ingestOnce}). */
  private saved = { position: LOG_START, at: -Infinity };

  private readonly eventStore: EventStore;
  private readonly storedLog: StoredLog;

  constructor(
    log: { eventStore: EventStore; storedLog: StoredLog },
    private readonly changes: ChangeSource,
    private readonly outbox: WebhookOutbox,
    private readonly logger: DispatcherLogger,
    options: Partial<DispatcherOptions> & Pick<DispatcherOptions, 'policy' | 'projectedStreams' | 'cursors' | 'secrets'>,
  ) {
    this.options = { ...DISPATCHER_DEFAULTS, ...options };
    this.eventStore = log.eventStore;
    this.storedLog = log.storedLog;
  }

  /** Position of the last log event ingested. */
  get checkpoint(): LogPosition {
    return this.position;
  }

  /** Attempts made since start (delivered or not). */
  get attemptsMade(): number {
    return this.attempts;
  }

  /** Loads the stored endpoints and checkpoint and starts following; returns at once. */
  async start(): Promise<void> {
    this.position = await this.outbox.checkpoint();
    this.saved = { position: this.position, at: this.now().getTime() };
    this.endpoints = new Map((await this.outbox.endpoints()).map((e) => [e.endpoint_id, e]));
    this.stopped = false;
    this.loop = this.run();
  }

  /**
   * Stops taking work, waits for the attempts in flight to end and be recorded, and stores the
   * checkpoint where ingest steps with nothing to store moved it since it was last stored.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.loop;
    await Promise.allSettled(this.inFlight.values());
    if (this.position > this.saved.position) await this.save(this.position, this.now().getTime());
  }

  /** Looks for work now instead of at the next poll (the in-process projector calls it after each batch). */
  wake(): void {
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    let backoff = this.options.pollMs;
    while (!this.stopped) {
      try {
        const ingested = await this.ingestOnce();
        const started = await this.deliverDue();
        backoff = this.options.pollMs;
        if (ingested === 0 && started === 0) await this.idle(await this.waitMs());
        // The stores may answer without I/O: let timers and sockets run between two steps.
        else await new Promise((resolve) => setImmediate(resolve));
      } catch (err) {
        this.logger.error('webhook dispatcher step failed; retrying', { error: String(err), retry_in_ms: backoff });
        await this.idle(backoff);
        backoff = Math.min(backoff * 2, 30_000);
      }
    }
  }

  /** How long to wait with nothing to do: the poll, or less when a retry falls due sooner. */
  private async waitMs(): Promise<number> {
    const due = await this.outbox.nextDueAt();
    const until = due === null ? this.options.pollMs : due - this.now().getTime();
    return Math.max(10, Math.min(this.options.pollMs, until));
  }

  /** Waits `ms`, or less when {@link wake} is called. */
  private idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        if (this.wakeUp === done) this.wakeUp = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  private now = (): Date => this.options.clock?.() ?? new Date();

  /**
   * One ingest step: the endpoints' events and the feed's changes after the checkpoint, as far as
   * the feed is whole ({@link wholeUpTo}; at most a batch of each), in position order, stored with
   * the new checkpoint. A step that stores nothing but the checkpoint (no endpoint is active and no
   * endpoint event came: what the writes of a service without webhooks wake) stores it at most every
   * {@link CHECKPOINT_SAVE_MS}, and {@link stop} stores it: a restart after a crash reads those
   * positions again and finds again that they hold nothing to store. Returns how many events and
   * changes it read.
   */
  async ingestOnce(): Promise<number> {
    const whole = await this.wholeUpTo();
    if (whole.before === null ? whole.reached <= this.position : whole.before === this.coveredBefore) return 0;
    const { batchSize } = this.options;
    const hooks = await this.endpointEvents(whole);
    // The new checkpoint is a position read here, never one computed: the last event read, or the newest one known.
    const lastHook = hooks.length > 0 ? hooks[hooks.length - 1].position : this.position;
    let cut = hooks.length === batchSize;
    let upTo = cut ? lastHook : laterPosition(whole.reached, lastHook);
    let changes: StoredChange[] | null = [];
    if (![...this.endpoints.values()].some((e) => e.status === 'active')) {
      // No endpoint receives anything before the next endpoint event: the changes up to it are skipped unread.
      if (hooks.length > 0) [upTo, cut] = [hooks[0].position, true];
    } else if (upTo > this.position) changes = await this.changes.changesBetween(this.position, upTo, batchSize);
    if (changes === null) {
      // A store built before the feed: nothing moves until it is rebuilt (docs/change-feed.md "Upgrading").
      if (!this.waitingForFeed) this.logger.warn('webhook dispatcher waits: the trainees projection has no change feed until rebuilt');
      this.waitingForFeed = true;
      return 0;
    }
    this.waitingForFeed = false;
    if (changes.length === batchSize) [upTo, cut] = [earlierPosition(upTo, changes[changes.length - 1].position), true];
    this.coveredBefore = cut ? null : whole.before;
    if (upTo <= this.position) return 0;
    const items: (RecordedEvent | StoredChange)[] = [...hooks, ...changes].filter((i) => i.position <= upTo);
    items.sort((a, b) => a.position - b.position);
    const at = this.now().getTime();
    const endpoints = new Map(this.endpoints);
    const changed = new Map<string, WebhookEndpointRecord>();
    const deliveries: NewWebhookDelivery[] = [];
    const abandonFor: string[] = [];
    for (const item of items) {
      if ('streamId' in item) {
        const event = decodeWebhookEvent(item);
        if (!event) continue;
        const record = applyEndpointEvent(endpoints.get(event.data.endpoint_id), event, item.position);
        if (!record) continue;
        endpoints.set(record.endpoint_id, record);
        changed.set(record.endpoint_id, record);
        if (record.status === 'disabled') abandonFor.push(record.endpoint_id);
      } else {
        for (const endpoint of endpoints.values()) {
          if (!receives(endpoint, item)) continue;
          deliveries.push(deliveryOf(endpoint, item, at, this.options.cursors));
        }
      }
    }
    if (changed.size > 0 || deliveries.length > 0 || abandonFor.length > 0 || at - this.saved.at >= CHECKPOINT_SAVE_MS) {
      await this.outbox.ingest({ endpoints: [...changed.values()], deliveries, abandonFor, at, checkpoint: upTo });
      this.saved = { position: upTo, at };
    }
    this.endpoints = endpoints;
    this.position = upTo;
    return items.length;
  }

  /** Stores the checkpoint alone. */
  private async save(position: LogPosition, at: number): Promise<void> {
    await this.outbox.ingest({ endpoints: [], deliveries: [], abandonFor: [], at, checkpoint: position });
    this.saved = { position, at };
  }

  /**
   * How far the log can be read with a whole feed: up to the first trainee or provider event the
   * projector has not applied yet, exclusive (`before`), else up to the log's head (`before` null;
   * events it does not project, such as the endpoints' own, do not hold the dispatcher back).
   * `reached` is the newest position known to be whole: the projector's checkpoint, or the head.
   * Both are positions the store gave: a position is never computed (an EventStoreDB position is
   * a byte offset, and one no event starts at cannot be read from). The head is read first, so an
   * event appended meanwhile lies beyond it.
   */
  private async wholeUpTo(): Promise<WholeFeed> {
    const head = await this.storedLog.headPosition();
    const applied = await this.changes.checkpoint();
    const [next] = await this.storedLog.readAll({ fromPosition: applied, maxCount: 1, filter: this.options.projectedStreams });
    return next && next.position <= head ? { reached: applied, before: next.position } : { reached: head, before: null };
  }

  /**
   * The endpoints' events after the checkpoint and within `whole` (before `whole.before`, or at or
   * below the head `whole.reached`), in position order, at most a batch. Read by stream where the
   * store can (`readStreamsByPrefix`: a few rows on the stream-id index, whatever the log's length);
   * else from the log by position with a filter.
   */
  private async endpointEvents(whole: WholeFeed): Promise<RecordedEvent[]> {
    const { batchSize } = this.options;
    const filter = { streamPrefixes: [WEBHOOK_STREAM_PREFIX] };
    const within = (e: RecordedEvent): boolean => (whole.before === null ? e.position <= whole.reached : e.position < whole.before);
    const upTo = whole.before ?? whole.reached;
    if (!this.storedLog.readStreamsByPrefix) {
      return (await this.storedLog.readAll({ fromPosition: this.position, maxCount: batchSize, filter })).filter(within);
    }
    const events: RecordedEvent[] = [];
    for (let afterStream: string | null = null; ;) {
      const read = await this.storedLog.readStreamsByPrefix({
        streamPrefix: WEBHOOK_STREAM_PREFIX,
        afterStream,
        toPosition: upTo,
        maxCount: 1000,
      });
      if (read.length === 0) break;
      events.push(...read.filter((e) => e.position > this.position && within(e)));
      afterStream = read[read.length - 1].streamId;
    }
    return events.sort((a, b) => a.position - b.position).slice(0, batchSize);
  }

  /** Starts the due deliveries that are not in flight, up to the concurrency; returns how many it started. */
  private async deliverDue(): Promise<number> {
    const free = this.options.concurrency - this.inFlight.size;
    if (free <= 0) return 0;
    // Deliveries of an endpoint disabled since are left for the ingest of its event to abandon.
    const due = (await this.outbox.due(this.now().getTime(), free + this.inFlight.size)).filter(
      (d) => !this.inFlight.has(d.delivery_id) && this.endpoints.get(d.endpoint_id)?.status === 'active',
    );
    let started = 0;
    for (const delivery of due.slice(0, free)) {
      const attempt = this.attempt(delivery).finally(() => {
        this.inFlight.delete(delivery.delivery_id);
        this.wake();
      });
      this.inFlight.set(delivery.delivery_id, attempt);
      started++;
    }
    return started;
  }

  /** One attempt of one delivery, recorded; gives up on the endpoint after `giveUpAfterMs` of failures. */
  private async attempt(delivery: WebhookDelivery): Promise<void> {
    const endpoint = this.endpoints.get(delivery.endpoint_id);
    if (!endpoint || endpoint.status !== 'active') return;
    const at = this.now();
    this.attempts++;
    const outcome = await this.send(endpoint, delivery, at);
    const ended = this.now().getTime();
    this.options.observer?.attempted(outcome.delivered);
    try {
      if (outcome.delivered) {
        await this.outbox.recordAttempt(delivery.delivery_id, { delivered: true, at: ended, status: outcome.status });
        return;
      }
      const failures = delivery.attempts + 1;
      const wait = Math.min(this.options.retryBaseMs * 2 ** (failures - 1), this.options.retryMaxMs);
      await this.outbox.recordAttempt(delivery.delivery_id, {
        delivered: false,
        at: ended,
        status: outcome.status,
        error: outcome.error,
        next_attempt_at: ended + wait,
      });
      const since = delivery.first_attempt_at ?? at.getTime();
      if (ended - since >= this.options.giveUpAfterMs) await this.giveUp(endpoint, since, failures, outcome.error);
    } catch (err) {
      this.logger.error('webhook attempt could not be recorded; it will be made again', {
        delivery_id: delivery.delivery_id,
        error: String(err),
      });
    }
  }

  /** Signs and sends one attempt; a secret that does not open (another service key) is a failed attempt that says so. */
  private async send(endpoint: WebhookEndpointRecord, delivery: WebhookDelivery, at: Date): ReturnType<typeof sendWebhook> {
    let secret: string;
    try {
      secret = this.options.secrets.open(endpoint.secret, endpoint.endpoint_id);
    } catch (err) {
      return { delivered: false, status: null, error: (err as Error).message };
    }
    const request = { url: endpoint.url, secret, messageId: delivery.message_id, payload: delivery.payload, at };
    return sendWebhook(request, { policy: this.options.policy, timeoutMs: this.options.timeoutMs });
  }

  /** Disables an endpoint whose delivery has failed since `since`; the ingest of its event abandons its pending deliveries. */
  private async giveUp(endpoint: WebhookEndpointRecord, since: number, failures: number, error: string): Promise<void> {
    const reason = `deliveries failing since ${new Date(since).toISOString()} (${failures} attempts; last: ${error})`.slice(0, 500);
    this.endpoints.set(endpoint.endpoint_id, { ...endpoint, status: 'disabled', disabled_reason: reason });
    await disableWebhookEndpoint(this.eventStore, endpoint.endpoint_id, reason, this.now());
    this.options.observer?.endpointDisabled();
    this.logger.warn('webhook endpoint disabled after failing deliveries', { endpoint_id: endpoint.endpoint_id, ukprn: endpoint.ukprn });
  }
}
