import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Metrics } from '@app/runtime/telemetry';

/**
 * Counts and times every answer of the API (docs/observability.md "Metrics"):
 * `trainee_records_http_requests_total` and `trainee_records_http_request_duration_seconds` by
 * route template (`/api/:api_version/trainees/:trainee_id`, never the path with its ids; `unmatched`
 * for a path no route has), method and status code. The API's `onResponse` hook calls what this
 * returns for every answer, so answers refused before a handler (401, 403, 429, 413) count too. The
 * labelled children are kept per key: the keys are bounded by the routes, the methods Node parses
 * and the status codes.
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
