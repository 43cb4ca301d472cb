import { context, propagation, ROOT_CONTEXT, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';

export const tracer = trace.getTracer('trainee-records');

let started = false;
let sdkShutdown: (() => Promise<void>) | null = null;

export function tracingEnabled(): boolean {
  return started;
}

/**
 * Starts OpenTelemetry (docs/observability.md "Traces") when an `OTEL_EXPORTER_OTLP_*ENDPOINT` is set, else null. Must run before HTTP,
 * Fastify and MongoDB load: each app's entry imports its `tracing.ts` first. The SDK (about 2 s to load) loads only then.
 */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): { shutdown(): Promise<void> } | null {
  if (started || (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)) return null;
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded synchronously, and only when tracing is configured */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { MongoDBInstrumentation } =
    require('@opentelemetry/instrumentation-mongodb') as typeof import('@opentelemetry/instrumentation-mongodb');
  const { FastifyOtelInstrumentation } = require('@fastify/otel') as typeof import('@fastify/otel');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME || serviceName,
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      new HttpInstrumentation({ startIncomingSpanHook: (request) => queryWithoutValues(request.url) }),
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        requestHook: (span, request) => span.setAttribute('url.path', request.url.split('?')[0]),
      }),
      new MongoDBInstrumentation(),
    ],
  });
  sdk.start();
  started = true;
  sdkShutdown = () => sdk.shutdown();
  return { shutdown: sdkShutdown };
}

/**
 * A server span's `url.query` with each value `REDACTED` (`{}` for a request without a query): a query may hold personal data, as
 * the uploads page's search does, or a secret, as a sign-in's callback does (docs/observability.md "Traces"). The names stay.
 */
export function queryWithoutValues(url: string | undefined): Record<string, string> {
  const at = url?.indexOf('?') ?? -1;
  if (url === undefined || at < 0) return {};
  const names = [...new URLSearchParams(url.slice(at + 1)).keys()];
  return { 'url.query': names.map((name) => `${encodeURIComponent(name)}=REDACTED`).join('&') };
}

/** At most 5 s; never rejects. */
export async function stopTracing(): Promise<void> {
  const shutdown = sdkShutdown;
  sdkShutdown = null;
  if (!shutdown) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([shutdown().catch(() => undefined), new Promise<void>((r) => (timer = setTimeout(r, 5_000)))]);
  clearTimeout(timer);
}

/** Null when tracing is off. */
export function currentTraceparent(): string | null {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** The root context when it is absent or malformed. */
export function contextOf(traceparent: unknown): Context {
  return typeof traceparent === 'string' ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT;
}

/** Child of the active span or `parent`, failed when `fn` throws; a no-op span with tracing off. */
export async function inSpan<T>(name: string, fn: (span: Span) => Promise<T>, parent: Context = context.active()): Promise<T> {
  return tracer.startActiveSpan(name, {}, parent, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.name : 'error' });
      throw err;
    } finally {
      span.end();
    }
  });
}

export function inSyncSpan<T>(name: string, fn: () => T): T {
  return tracer.startActiveSpan(name, (span) => {
    try {
      return fn();
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.name : 'error' });
      throw err;
    } finally {
      span.end();
    }
  });
}
