import type { TeacherRegistry } from '@app/registry';
import type { RecordedEvent } from '@app/event-sourcing';
import type { Metrics } from './metrics';
import { contextOf, inSpan, tracingEnabled } from '@app/runtime/tracing';

/** Counts and times each request by operation, in a span when tracing (docs/observability.md); the client itself when both are off. */
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

/** Each event handled in a span child of the one that appended it, joining the write's trace; undefined when tracing is off. */
export function registryProcessTracing(): ((event: RecordedEvent, handle: () => Promise<void>) => Promise<void>) | undefined {
  if (!tracingEnabled()) return undefined;
  return (event, handle) => inSpan(`registry_process.handle ${event.type}`, handle, contextOf(event.metadata.traceparent));
}
