/**
 * Every metric family the service serves on its metrics listener (docs/observability.md), by name:
 * what it counts, its type and its labels. Labels hold only bounded values named here (route
 * templates, methods, status codes, projection and operation names, outcomes): never an id, a
 * token, a UKPRN or personal data. The dashboard (`ops/grafana/trainee-records.json`) and the
 * alerts (`ops/prometheus/alerts.yml`) use only these names; a test holds them to this list.
 */
export interface MetricFamily {
  name: string;
  type: 'counter' | 'gauge' | 'histogram';
  help: string;
  labels: readonly string[];
  /** Histogram buckets, in seconds. */
  buckets?: readonly number[];
  /** The processes that serve it: `api`, `projector` (the API serves these too when it projects in-process). */
  served: readonly ('api' | 'projector')[];
}

/** Latency buckets in seconds, from 1 ms to 10 s. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

export const METRIC_PREFIX = 'trainee_records_';

export const METRIC_FAMILIES = [
  // HTTP (the API)
  {
    name: 'trainee_records_http_requests_total',
    type: 'counter',
    help: 'HTTP requests answered, by route template, method and status code.',
    labels: ['route', 'method', 'status'],
    served: ['api'],
  },
  {
    name: 'trainee_records_http_request_duration_seconds',
    type: 'histogram',
    help: 'Time from the request arriving to the answer sent, in seconds, by route template, method and status code.',
    labels: ['route', 'method', 'status'],
    buckets: LATENCY_BUCKETS,
    served: ['api'],
  },
  {
    name: 'trainee_records_storage_faults_total',
    type: 'counter',
    help: 'Requests answered 503 because the data directory is full, read-only or cannot be written, by kind (full, read_only, unwritable).',
    labels: ['kind'],
    served: ['api'],
  },
  {
    name: 'trainee_records_http_rate_limited_total',
    type: 'counter',
    help: 'Requests refused with 429 by a rate limit, by limit (client address or token).',
    labels: ['limit'],
    served: ['api'],
  },
  // The event store (every process that appends)
  {
    name: 'trainee_records_event_store_append_duration_seconds',
    type: 'histogram',
    help: 'Time an append to the event store took, in seconds, by outcome (ok, conflict, error).',
    labels: ['outcome'],
    buckets: LATENCY_BUCKETS,
    served: ['api', 'projector'],
  },
  {
    name: 'trainee_records_event_store_conflicts_total',
    type: 'counter',
    help: 'Appends refused because the stream had moved on (optimistic concurrency); each is retried or answered 409.',
    labels: [],
    served: ['api', 'projector'],
  },
  {
    name: 'trainee_records_event_store_broken_chains_total',
    type: 'counter',
    help: 'Appends refused because a stored event of the stream no longer makes its hash chain: the log was altered outside the service.',
    labels: [],
    served: ['api', 'projector'],
  },
  {
    name: 'trainee_records_events_appended_total',
    type: 'counter',
    help: 'Events appended to the event store, by stream category (trainee, provider, registration, webhook, ...).',
    labels: ['category'],
    served: ['api', 'projector'],
  },
  // The projector
  {
    name: 'trainee_records_projector_lag_events',
    type: 'gauge',
    help: 'Events of the projected streams in the log not yet applied, by projection (counted up to 1,000).',
    labels: ['projection'],
    served: ['projector'],
  },
  {
    name: 'trainee_records_projector_lag_seconds',
    type: 'gauge',
    help: 'How long the oldest event not yet applied has waited, in seconds, by projection (0 when caught up).',
    labels: ['projection'],
    served: ['projector'],
  },
  {
    name: 'trainee_records_projector_live',
    type: 'gauge',
    help: '1 while the projector is live (subscribed and applying), 0 while stopped or failing.',
    labels: [],
    served: ['projector'],
  },
  {
    name: 'trainee_records_checkpoint_ahead_of_log',
    type: 'gauge',
    help: "1 while a consumer (projector, webhook_dispatcher) has stopped because its stored checkpoint is beyond the log's head.",
    labels: ['consumer'],
    served: ['projector'],
  },
  {
    name: 'trainee_records_projector_batch_duration_seconds',
    type: 'histogram',
    help: 'Time to apply one batch of events to the read models, in seconds.',
    labels: [],
    buckets: LATENCY_BUCKETS,
    served: ['projector'],
  },
  {
    name: 'trainee_records_projector_events_applied_total',
    type: 'counter',
    help: 'Events applied to the read models by this process.',
    labels: [],
    served: ['projector'],
  },
  {
    name: 'trainee_records_projector_stuck_seconds',
    type: 'gauge',
    help: 'How long the projector has been retrying one event it cannot apply, in seconds (0 while none fails); nothing after it is projected meanwhile.',
    labels: [],
    served: ['projector'],
  },
  // Projections and their rebuilds (read from the read store, so any process shows a rebuild run by the admin CLI)
  {
    name: 'trainee_records_projection_rebuild_needed',
    type: 'gauge',
    help: '1 when the served store of a projection was built by another version of the code.',
    labels: ['projection'],
    served: ['projector'],
  },
  {
    name: 'trainee_records_rebuild_in_progress',
    type: 'gauge',
    help: '1 while a rebuild of the projection is writing a new store.',
    labels: ['projection'],
    served: ['projector'],
  },
  {
    name: 'trainee_records_rebuild_events_applied',
    type: 'gauge',
    help: 'Events applied to the new store by the current (or last) rebuild of the projection.',
    labels: ['projection'],
    served: ['projector'],
  },
  {
    name: 'trainee_records_rebuild_events_per_second',
    type: 'gauge',
    help: 'Events applied per second by the current (or last) rebuild of the projection, over its run.',
    labels: ['projection'],
    served: ['projector'],
  },
  // The registry process manager
  {
    name: 'trainee_records_registry_requests_total',
    type: 'counter',
    help: 'Requests to the teacher registry, by operation (request_trn, recommend_for_award) and outcome (ok, error).',
    labels: ['operation', 'outcome'],
    served: ['projector'],
  },
  {
    name: 'trainee_records_registry_request_duration_seconds',
    type: 'histogram',
    help: 'Time a request to the teacher registry took, in seconds, by operation.',
    labels: ['operation'],
    buckets: LATENCY_BUCKETS,
    served: ['projector'],
  },
  {
    name: 'trainee_records_registry_backlog_events',
    type: 'gauge',
    help: 'Events the registry process manager has still to handle (TRN requests and awards; counted up to 1,000).',
    labels: [],
    served: ['projector'],
  },
  // Webhooks
  {
    name: 'trainee_records_webhook_attempts_total',
    type: 'counter',
    help: 'Webhook delivery attempts, by outcome (delivered, failed).',
    labels: ['outcome'],
    served: ['projector'],
  },
  {
    name: 'trainee_records_webhook_pending_deliveries',
    type: 'gauge',
    help: 'Webhook deliveries not yet made to an active endpoint.',
    labels: [],
    served: ['projector'],
  },
  {
    name: 'trainee_records_webhook_endpoints_disabled_total',
    type: 'counter',
    help: 'Webhook endpoints disabled by the dispatcher after failing deliveries.',
    labels: [],
    served: ['projector'],
  },
  // Scheduled backups (the process that projects; docs/operations.md "Backups and restore")
  {
    name: 'trainee_records_backup_last_success_timestamp_seconds',
    type: 'gauge',
    help: 'When the newest scheduled backup was taken, in seconds since the epoch; 0 for none.',
    labels: [],
    served: ['projector'],
  },
  {
    name: 'trainee_records_backup_age_seconds',
    type: 'gauge',
    help: 'Seconds since the newest backup was taken (since the schedule started when there is none); 0 without a schedule.',
    labels: [],
    served: ['projector'],
  },
  {
    name: 'trainee_records_backup_interval_seconds',
    type: 'gauge',
    help: 'The backup schedule’s period (BACKUP_EVERY) in seconds; 0 without a schedule.',
    labels: [],
    served: ['projector'],
  },
] as const satisfies readonly MetricFamily[];

export type MetricName = (typeof METRIC_FAMILIES)[number]['name'];

/**
 * The Node.js process families served beside ours (`prom-client`'s default metrics, unprefixed, so
 * that the usual Node.js dashboards work): a few of them, as the dashboard and alerts use them.
 */
export const PROCESS_FAMILIES = [
  'process_cpu_seconds_total',
  'process_resident_memory_bytes',
  'nodejs_eventloop_lag_p99_seconds',
  'nodejs_heap_size_used_bytes',
] as const;
