import { REGISTRY_PM_EVENT_TYPES, type RegistryProcessManager } from '@app/registry';
import type { RecordedEvent, StoredLog } from '@app/event-sourcing';
import { CHECKPOINT_AHEAD_OF_LOG, LAG_COUNT_CAP, measureLag, type ProjectorHandle, type ProjectorOptions } from '@app/runtime/projector';
import { keepsRebuildRuns, type RebuildableStore } from '@app/runtime/rebuild';
import type { WebhookDispatcher, WebhookOutbox } from '@app/webhooks/delivery';
import type { Metrics } from './metrics';
import { RegistryBacklog } from './registry-backlog';
import { contextOf, tracer, tracingEnabled } from '@app/runtime/tracing';

/** Null: not run here. */
export interface ProjectionParts {
  /** Lags and backlog are counted on it. */
  storedLog: StoredLog;
  readModel: unknown;
  projector: ProjectorHandle | null;
  registryProcess: RegistryProcessManager | null;
  webhookOutbox: WebhookOutbox | null;
  webhookDispatcher: Pick<WebhookDispatcher, 'aheadOfLog'> | null;
}

/** The store's seconds, and each event's type and `traceparent` when tracing. */
export interface AppliedBatch {
  count: number;
  seconds: number;
  traced: readonly { type: string; traceparent: string }[];
}

/**
 * Batch latency and events applied with `metrics`; with tracing, a span per traced event, child of the one that appended it
 * (docs/observability.md). Null when both are off, so a batch's events need not be looked at.
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

export function tracedEvents(events: readonly RecordedEvent[]): AppliedBatch['traced'] {
  const out: { type: string; traceparent: string }[] = [];
  for (const e of events) if (typeof e.metadata.traceparent === 'string') out.push({ type: e.type, traceparent: e.metadata.traceparent });
  return out;
}

/** None when it records nothing. */
export function projectorHooks(metrics: Metrics | null): Pick<ProjectorOptions, 'onBatchStored'> {
  const observe = batchObserver(metrics);
  if (!observe) return {};
  const traced = tracingEnabled();
  return { onBatchStored: (events, seconds) => observe({ count: events.length, seconds, traced: traced ? tracedEvents(events) : [] }) };
}

/** From the batch's start to now. */
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

export function webhookHooks(metrics: Metrics): { attempted(delivered: boolean): void; endpointDisabled(): void } {
  const attempts = metrics.counter('trainee_records_webhook_attempts_total');
  const disabled = metrics.counter('trainee_records_webhook_endpoints_disabled_total');
  return {
    attempted: (delivered) => attempts.inc({ outcome: delivered ? 'delivered' : 'failed' }),
    endpointDisabled: () => disabled.inc(),
  };
}

/**
 * The projector process's scrape-time readings (docs/observability.md "Metrics"): liveness and retrying, checkpoints beyond the log's
 * head, each projection's lag and
 * rebuild state (from the store, so an admin CLI rebuild shows), the registry backlog, the pending webhook deliveries.
 */
export function observeProjections(metrics: Metrics, parts: ProjectionParts): void {
  metrics.onScrape(async () => {
    const health = parts.projector?.health();
    metrics.gauge('trainee_records_projector_live').set(health?.state === 'live' ? 1 : 0);
    const failure = health?.failure?.kind === 'apply' ? health.failure : null;
    metrics
      .gauge('trainee_records_projector_stuck_seconds')
      .set(failure ? Math.max(0, (Date.now() - Date.parse(failure.since)) / 1000) : 0);
    const ahead = metrics.gauge('trainee_records_checkpoint_ahead_of_log');
    if (parts.projector) ahead.set({ consumer: 'projector' }, health?.failure?.code === CHECKPOINT_AHEAD_OF_LOG ? 1 : 0);
    if (parts.webhookDispatcher) ahead.set({ consumer: 'webhook_dispatcher' }, parts.webhookDispatcher.aheadOfLog ? 1 : 0);
  });
  metrics.onScrape(() => readProjections(metrics, parts));
  const registryProcess = parts.registryProcess;
  if (registryProcess) {
    // Counted up to the cap, reading only what the log gained since the last scrape.
    const backlog = new RegistryBacklog(parts.storedLog, REGISTRY_PM_EVENT_TYPES, LAG_COUNT_CAP);
    metrics.onScrape(async () => {
      metrics.gauge('trainee_records_registry_backlog_events').set(await backlog.count(registryProcess.checkpoint));
    });
  }
  const outbox = parts.webhookOutbox;
  if (outbox) metrics.onScrape(async () => metrics.gauge('trainee_records_webhook_pending_deliveries').set(await outbox.pendingCount()));
}

/** When the store keeps projection versions. */
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
