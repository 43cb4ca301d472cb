export { instrumentEventStore } from './instrument-event-store';
export { instrumentRegistry, registryProcessTracing } from './instrument-registry';
export { METRIC_FAMILIES, PROCESS_FAMILIES, type MetricFamily } from './metric-catalogue';
export { startMetricsServer, type MetricsServer } from './metrics-server';
export { Metrics, type ProcessRole } from './metrics';
export { batchObserver, observeProjections, projectorHooks, tracedEvents, webhookHooks, type AppliedBatch } from './observe-projections';
