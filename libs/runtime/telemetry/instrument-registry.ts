import type { TeacherRegistry } from '@app/registry';
import type { RecordedEvent } from '@app/event-sourcing';
import type { Metrics } from './metrics';
import { contextOf, inSpan, tracingEnabled } from '@app/runtime/tracing';

/**
 * The teacher registry client measured (docs/observability.md): with `metrics`,
 * `trainee_records_registry_requests_total{operation, outcome}` and the duration by operation
 * (`request_trn`, `recommend_for_award`); with tracing on, each request in a span
 * `registry.<operation>`. Answers and errors are passed on unchanged. Returns the client itself
 * when both are off.
 */
export function instrumentRegistry(registry: TeacherRegistry, metrics: Metrics | null): TeacherRegistry {
  const traced = tracingEnabled();
  if (!metrics && !traced) return registry;
  const requests = metrics?.counter('trainee_records_registry_requests_total');
  const duration = metrics?.histogram('trainee_records_registry_request_duration_seconds');
  const measure = async <T>(operation: string, signal: AbortSignal | undefined, call: () => Promise<T>): Promise<T> => {
    const end = duration?.startTimer({ operation });
    try {
      const answer = traced ? await inSpan(`registry.${operation}`, call) : await call();
      requests?.inc({ operation, outcome: 'ok' });
      return answer;
    } catch (err) {
      // A call abandoned because the process stops is not the registry's error.
      if (!signal?.aborted) requests?.inc({ operation, outcome: 'error' });
      throw err;
    } finally {
      end?.();
    }
  };
  return {
    requestTrn: (request, signal, context) => measure('request_trn', signal, () => registry.requestTrn(request, signal, context)),
    recommendForAward: (request, signal, context) =>
      measure('recommend_for_award', signal, () => registry.recommendForAward(request, signal, context)),
  };
}

/**
 * The registry process manager's `around` hook when tracing is on (docs/observability.md "Traces"):
 * each event is handled in a span `registry_process.handle <type>`, child of the span that appended
 * the event, so its registry request and the events it records join the trace of the write that
 * caused them. Undefined when tracing is off.
 */
export function registryProcessTracing(): ((event: RecordedEvent, handle: () => Promise<void>) => Promise<void>) | undefined {
  if (!tracingEnabled()) return undefined;
  return (event, handle) => inSpan(`registry_process.handle ${event.type}`, handle, contextOf(event.metadata.traceparent));
}
