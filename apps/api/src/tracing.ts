import { startTracing } from '@app/runtime/tracing';

// Imported first by main.ts: the SDK must patch HTTP, Fastify and MongoDB before they load
// (docs/observability.md "Traces"); nothing happens unless OTEL_EXPORTER_OTLP_ENDPOINT is set.
startTracing('trainee-records-api');
