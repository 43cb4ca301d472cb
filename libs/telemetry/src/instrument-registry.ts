import type { TeacherRegistry } from '@app/application';
import type { Metrics } from './metrics';

/**
 * The teacher registry client with its requests counted and timed (docs/observability.md
 * "Metrics"): `trainee_records_registry_requests_total{operation, outcome}` and the duration by
 * operation (`request_trn`, `recommend_for_award`). Answers and errors are passed on unchanged.
 */
export function instrumentRegistry(registry: TeacherRegistry, metrics: Metrics): TeacherRegistry {
  const requests = metrics.counter('trainee_records_registry_requests_total');
  const duration = metrics.histogram('trainee_records_registry_request_duration_seconds');
  const measure = async <T>(operation: string, signal: AbortSignal | undefined, call: () => Promise<T>): Promise<T> => {
    const end = duration.startTimer({ operation });
    try {
      const answer = await call();
      requests.inc({ operation, outcome: 'ok' });
      return answer;
    } catch (err) {
      // A call abandoned because the process stops is not the registry's error.
      if (!signal?.aborted) requests.inc({ operation, outcome: 'error' });
      throw err;
    } finally {
      end();
    }
  };
  return {
    requestTrn: (request, signal, context) => measure('request_trn', signal, () => registry.requestTrn(request, signal, context)),
    recommendForAward: (request, signal, context) =>
      measure('recommend_for_award', signal, () => registry.recommendForAward(request, signal, context)),
  };
}
