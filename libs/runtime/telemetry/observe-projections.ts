import { REGISTRY_PM_EVENT_TYPES, type RegistryProcessManager } from '@app/registry';
import type { RecordedEvent, StoredLog } from '@app/event-sourcing';
import { LAG_COUNT_CAP, measureLag, type ProjectorHandle, type ProjectorOptions } from '@app/runtime/projector';
import { keepsRebuildRuns, type RebuildableStore } from '@app/runtime/rebuild';
import type { WebhookOutbox } from '@app/webhooks/delivery';
import type { Metrics } from './metrics';
import { RegistryBacklog } from './registry-backlog';
import { contextOf, tracer, tracingEnabled } from '@app/runtime/tracing';

/** What the projector's process runs, as far as its metrics read them (null: not run here). */
export interface ProjectionParts {
  /** The log as stored: the lags and the backlog are counted on it (`measureLag`). */
  storedLog: StoredLog;
  readModel: unknown;
  projector: ProjectorHandle | null;
  registryProcess: RegistryProcessManager | null;
  webhookOutbox: WebhookOutbox | null;
}

/**
 * A batch the projector stored: how many events, how long the store took (s), and the events' type
 * and `traceparent` where tracing is on.
 */
export interface AppliedBatch {
  count: number;
  seconds: number;
  traced: readonly { type: string; traceparent: string }[];
}

/**
 * What records a stored batch (docs/observability.md): with `metrics`, batch latency and events
 * applied; with tracing on, a span `projection.apply <type>` per event that carries a
 * `traceparent`, child of the span that appended it, spanning the store's write of its batch. Null
 * when both are off (then a batch's events need not be looked at).
 */
export function batchObserver(metrics: Metrics | null): ((batch: AppliedBatch) => void) | null {
  const duration = metrics?.histogram('trainee_records_projector_batch_duration_seconds');
  const applied = metrics?.counter('trainee_records_projector_events_applied_total');
  const traced = tracingEnabled();
  if (!metrics && !traced) return null;
  return ({ count, seconds, traced: spans }) => {
    duration?.observe(seconds);
    applied?.inc(count);
    if (traced) traceApplied(spans, count, seconds);
  };
}

/** The events of a batch that carry a `traceparent`, with their type (what {@link AppliedBatch} keeps of them). */
export function tracedEvents(events: readonly RecordedEvent[]): AppliedBatch['traced'] {
  const out: { type: string; traceparent: string }[] = [];
  for (const e of events) if (typeof e.metadata.traceparent === 'string') out.push({ type: e.type, traceparent: e.metadata.traceparent });
  return out;
}

/** The projector's hooks of an in-thread projector: each stored batch to {@link batchObserver}. None when it records nothing. */
export function projectorHooks(metrics: Metrics | null): Pick<ProjectorOptions, 'onBatchStored'> {
  const observe = batchObserver(metrics);
  if (!observe) return {};
  const traced = tracingEnabled();
  return { onBatchStored: (events, seconds) => observe({ count: events.length, seconds, traced: traced ? tracedEvents(events) : [] }) };
}

/** One span per traced event, from the batch's start to now. */
function traceApplied(events: AppliedBatch['traced'], batchSize: number, seconds: number): void {
  const end = Date.now();
  const startTime = end - seconds * 1000;
  for (const event of events) {
    const span = tracer.startSpan(`projection.apply ${event.type}`, { startTime }, contextOf(event.traceparent));
    span.setAttribute('trainee_records.event_type', event.type);
    span.setAttribute('trainee_records.batch_size', batchSize);
    span.end(end);
  }
}

/** The webhook dispatcher's hooks that feed the metrics: attempts by outcome, endpoints disabled. */
export function webhookHooks(metrics: Metrics): { attempted(delivered: boolean): void; endpointDisabled(): void } {
  const attempts = metrics.counter('trainee_records_webhook_attempts_total');
  const disabled = metrics.counter('trainee_records_webhook_endpoints_disabled_total');
  return {
    attempted: (delivered) => attempts.inc({ outcome: delivered ? 'delivered' : 'failed' }),
    endpointDisabled: () => disabled.inc(),
  };
}

/**
 * Registers the scrape-time readings of the projector's process (docs/observability.md "Metrics"):
 * whether the projector is live, and how long it has been retrying an event it cannot apply; each
 * projection's lag in events (up to {@link LAG_COUNT_CAP}, as `/readyz` counts) and in seconds, from
 * its stored checkpoint; whether a projection needs a rebuild
 * and the progress of the current or last rebuild (from the store, so a rebuild run by the admin
 * CLI shows); the registry process manager's backlog; the pending webhook deliveries.
 */
export function observeProjections(metrics: Metrics, parts: ProjectionParts): void {
  metrics.onScrape(async () => {
    const health = parts.projector?.health();
    metrics.gauge('trainee_records_projector_live').set(health?.state === 'live' ? 1 : 0);
    const failure = health?.failure?.kind === 'apply' ? health.failure : null;
    metrics
      .gauge('trainee_records_projector_stuck_seconds')
      .set(failure ? Math.max(0, (Date.now() - Date.parse(failure.since)) / 1000) : 0);
  });
  metrics.onScrape(() => readProjections(metrics, parts));
  const registryProcess = parts.registryProcess;
  if (registryProcess) {
    // Counted up to the cap, reading only what the log gained since the last scrape (RegistryBacklog).
    const backlog = new RegistryBacklog(parts.storedLog, REGISTRY_PM_EVENT_TYPES, LAG_COUNT_CAP);
    metrics.onScrape(async () => {
      metrics.gauge('trainee_records_registry_backlog_events').set(await backlog.count(registryProcess.checkpoint));
    });
  }
  const outbox = parts.webhookOutbox;
  if (outbox) metrics.onScrape(async () => metrics.gauge('trainee_records_webhook_pending_deliveries').set(await outbox.pendingCount()));
}

/** Lag, rebuild-needed and rebuild progress per projection, when the store keeps projection versions. */
async function readProjections(metrics: Metrics, parts: ProjectionParts): Promise<void> {
  const store = parts.readModel as Partial<RebuildableStore>;
  if (typeof store.projectionInfo !== 'function') return;
  const infos = await store.projectionInfo();
  const lags = new Map<number, ReturnType<typeof measureLag>>();
  const now = new Date();
  for (const info of infos) {
    const projection = info.name;
    if (!lags.has(info.checkpoint)) lags.set(info.checkpoint, measureLag(parts.storedLog, info.checkpoint, now));
    const lag = await lags.get(info.checkpoint)!;
    metrics.gauge('trainee_records_projector_lag_events').set({ projection }, lag.events);
    metrics.gauge('trainee_records_projector_lag_seconds').set({ projection }, lag.seconds);
    metrics.gauge('trainee_records_projection_rebuild_needed').set({ projection }, info.rebuild_needed ? 1 : 0);
    metrics.gauge('trainee_records_rebuild_in_progress').set({ projection }, info.rebuilding ? 1 : 0);
  }
  if (!keepsRebuildRuns(store)) return;
  for (const run of await store.rebuildRuns.all()) {
    const projection = run.projection;
    metrics.gauge('trainee_records_rebuild_events_applied').set({ projection }, run.events);
    metrics.gauge('trainee_records_rebuild_events_per_second').set({ projection }, run.seconds > 0 ? run.events / run.seconds : 0);
  }
}
