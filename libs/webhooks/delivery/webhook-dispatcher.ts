import type { ChangeFeed, CursorCodec, StoredChange } from '@app/changes';
import { decodeWebhookEvent, WEBHOOK_STREAM_PREFIX } from '@app/webhooks/decider';
import {
  type CheckpointAheadOfLog,
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
import { outboxAheadOfLog } from './outbox-reset';

/** How far the feed is whole ({@link WebhookDispatcher} `wholeUpTo`): positions the store gave, never computed. */
interface WholeFeed {
  /** The projector's checkpoint, or the log's head when `before` is null. */
  reached: LogPosition;
  /** Exclusive: the first event the projector has not applied; null when it has applied all up to the head. */
  before: LogPosition | null;
}

/** The change feed, whole up to `checkpoint()`. */
export type ChangeSource = Pick<ChangeFeed, 'changesBetween'> & { checkpoint(): Promise<LogPosition> };

export interface DispatcherLogger {
  info(message: string, context?: Record<string, unknown>): void;
  warn(message: string, context?: Record<string, unknown>): void;
  error(message: string, context?: Record<string, unknown>): void;
}

/** docs/change-feed.md "Retries"; defaults in {@link DISPATCHER_DEFAULTS}. Times in ms. */
export interface DispatcherOptions {
  /** Private addresses only in the sandbox. */
  policy: AddressPolicy;
  /** The projector's filter: the feed is whole up to the first of their events it has not applied. */
  projectedStreams: EventFilter;
  /** Each delivery's `cursor` sealed for its endpoint's provider, as `GET /changes` answers it. */
  cursors: CursorCodec;
  secrets: SealedSecrets;
  /** A whole attempt's deadline. */
  timeoutMs: number;
  /** The wait after the first failure; it doubles after each. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** From a delivery's first attempt to its endpoint's disabling. */
  giveUpAfterMs: number;
  concurrency: number;
  pollMs: number;
  /** Log events and changes read per ingest step. */
  batchSize: number;
  clock?: () => Date;
  /** The metrics; must not throw. */
  observer?: { attempted(delivered: boolean): void; endpointDisabled(): void };
}

export const DISPATCHER_DEFAULTS: Omit<DispatcherOptions, 'policy' | 'projectedStreams' | 'cursors' | 'secrets'> = {
  timeoutMs: 10_000,
  retryBaseMs: 5_000,
  retryMaxMs: 3_600_000,
  giveUpAfterMs: 3 * 24 * 3_600_000,
  concurrency: 8,
  pollMs: 500,
  batchSize: 500,
};

/** Each outbox commit syncs the disk, which writes without webhooks should not pay (docs/change-feed.md "How deliveries are kept"). */
export const CHECKPOINT_SAVE_MS = 5_000;

/**
 * The webhook dispatcher (docs/change-feed.md "Webhooks"): from its own checkpoint, the endpoints' events and the feed's changes in
 * position order, only as far as the projector has applied the log. Deliveries, endpoints and checkpoint are stored together, so a
 * restart neither loses nor repeats an enqueue; attempts are recorded as they end, so a crash repeats at most those in flight. Failures
 * are logged and retried, never thrown. Reads the log as stored; records a disabled endpoint through `log.eventStore`.
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
  /** The `before` of a whole feed below which every event was ingested; null when none is. */
  private coveredBefore: LogPosition | null = null;
  /** Last stored in the outbox, and when (epoch ms). */
  private saved = { position: LOG_START, at: -Infinity };
  private ahead: CheckpointAheadOfLog | null = null;

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

  get checkpoint(): LogPosition {
    return this.position;
  }

  /** Delivered or not, since start. */
  get attemptsMade(): number {
    return this.attempts;
  }

  /** Set when {@link start} found the stored checkpoint beyond the log's head: the dispatcher did not start. */
  get aheadOfLog(): CheckpointAheadOfLog | null {
    return this.ahead;
  }

  /**
   * Returns at once. A stored checkpoint beyond the log's head (a log restored older than the outbox) would skip the events appended
   * next: the dispatcher then logs an error naming the remedy, sets {@link aheadOfLog}, and does not start; the process goes on.
   */
  async start(): Promise<void> {
    const checkpoint = await this.outbox.checkpoint();
    this.ahead = await outboxAheadOfLog(checkpoint, this.storedLog);
    if (this.ahead) {
      this.logger.error('webhook dispatcher not started: its checkpoint is beyond the log', { error: this.ahead.message });
      return;
    }
    this.position = checkpoint;
    this.saved = { position: this.position, at: this.now().getTime() };
    this.endpoints = new Map((await this.outbox.endpoints()).map((e) => [e.endpoint_id, e]));
    this.stopped = false;
    this.loop = this.run();
  }

  /** Waits for the attempts in flight to be recorded, and stores a checkpoint moved by steps with nothing to store. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.loop;
    await Promise.allSettled(this.inFlight.values());
    if (this.position > this.saved.position) await this.save(this.position, this.now().getTime());
  }

  /** The in-process projector calls it after each batch. */
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

  /** The poll, or less when a retry falls due sooner. */
  private async waitMs(): Promise<number> {
    const due = await this.outbox.nextDueAt();
    const until = due === null ? this.options.pollMs : due - this.now().getTime();
    return Math.max(10, Math.min(this.options.pollMs, until));
  }

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
   * One ingest step, at most a batch of each, stored with the new checkpoint; a step with nothing but the checkpoint to store stores it
   * at most every {@link CHECKPOINT_SAVE_MS} (a restart reads those positions again, harmlessly). How many events and changes it read.
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

  private async save(position: LogPosition, at: number): Promise<void> {
    await this.outbox.ingest({ endpoints: [], deliveries: [], abandonFor: [], at, checkpoint: position });
    this.saved = { position, at };
  }

  /**
   * Up to the first trainee or provider event the projector has not applied (`before`), else the head (events it does not project, the
   * endpoints' own among them, do not hold the dispatcher back). The head is read first, so an event appended meanwhile lies beyond it.
   */
  private async wholeUpTo(): Promise<WholeFeed> {
    const head = await this.storedLog.headPosition();
    const applied = await this.changes.checkpoint();
    const [next] = await this.storedLog.readAll({ fromPosition: applied, maxCount: 1, filter: this.options.projectedStreams });
    return next && next.position <= head ? { reached: applied, before: next.position } : { reached: head, before: null };
  }

  /** At most a batch, in position order; by stream where the store can (a few rows on the stream-id index), else by position. */
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

  /** Up to the concurrency; how many it started. */
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

  /** Recorded; gives up on the endpoint after `giveUpAfterMs` of failures. */
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

  /** A secret that does not open (another service key) is a failed attempt that says so. */
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

  /** The ingest of its event abandons its pending deliveries. */
  private async giveUp(endpoint: WebhookEndpointRecord, since: number, failures: number, error: string): Promise<void> {
    const reason = `deliveries failing since ${new Date(since).toISOString()} (${failures} attempts; last: ${error})`.slice(0, 500);
    this.endpoints.set(endpoint.endpoint_id, { ...endpoint, status: 'disabled', disabled_reason: reason });
    await disableWebhookEndpoint(this.eventStore, endpoint.endpoint_id, reason, this.now());
    this.options.observer?.endpointDisabled();
    this.logger.warn('webhook endpoint disabled after failing deliveries', { endpoint_id: endpoint.endpoint_id, ukprn: endpoint.ukprn });
  }
}
