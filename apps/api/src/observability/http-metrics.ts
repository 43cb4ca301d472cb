import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Metrics } from '@app/runtime/telemetry';

/**
 * Counts and times every answer by route template (never the path with its ids; `unmatched`), method and status, refusals before a
 * handler included (docs/observability.md "Metrics"); the label sets are bounded by routes, parsed methods and statuses.
 */
export function httpMetricsRecorder(metrics: Metrics): (request: FastifyRequest, reply: FastifyReply) => void {
  const requests = metrics.counter('trainee_records_http_requests_total');
  const duration = metrics.histogram('trainee_records_http_request_duration_seconds');
  const children = new Map<string, { count: { inc(): void }; time: { observe(value: number): void } }>();
  return (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${request.method} ${reply.statusCode} ${route}`;
    let child = children.get(key);
    if (!child) {
      const labels = { route, method: request.method, status: String(reply.statusCode) };
      child = { count: requests.labels(labels), time: duration.labels(labels) };
      children.set(key, child);
    }
    child.count.inc();
    child.time.observe(reply.elapsedTime / 1000);
  };
}
