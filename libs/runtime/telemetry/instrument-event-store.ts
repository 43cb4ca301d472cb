import { PROVIDER_STREAM_PREFIX } from '@app/providers/decider';
import { REGISTRATION_GUARD_STREAM_PREFIX, TRAINEE_STREAM_PREFIX } from '@app/trainees/decider';
import { WEBHOOK_STREAM_PREFIX } from '@app/webhooks/decider';
import { StreamChainBrokenError, WrongExpectedVersionError, type EventData, type EventStore, type StreamWrite } from '@app/event-sourcing';
import type { Metrics } from './metrics';
import { currentTraceparent, inSpan, tracingEnabled } from '@app/runtime/tracing';

/** The stream categories named in the `category` label; any other stream counts as `other` (labels stay bounded). */
const CATEGORIES: ReadonlyArray<[prefix: string, category: string]> = [
  [TRAINEE_STREAM_PREFIX, 'trainee'],
  [PROVIDER_STREAM_PREFIX, 'provider'],
  [REGISTRATION_GUARD_STREAM_PREFIX, 'registration_guard'],
  [WEBHOOK_STREAM_PREFIX, 'webhook'],
];

/** The `category` label of a stream: its kind, never its id. */
export function streamCategory(streamId: string): string {
  return CATEGORIES.find(([prefix]) => streamId.startsWith(prefix))?.[1] ?? 'other';
}

/**
 * The event store with its appends measured (docs/observability.md): with `metrics`, each append's
 * duration by outcome (`ok`, `conflict` for a stream that moved on, `error`), the conflicts, the
 * appends refused on a broken hash chain (an alert: docs/observability.md), and the events appended
 * by stream category; with tracing on, each append in a span
 * `event_store.append` whose `traceparent` each event's metadata carries (unless it has one), so
 * the projector's and the registry process manager's spans join the trace of the write. Every
 * other method is the store's own, unchanged (a proxy, so optional methods and `instanceof` stay
 * as they are). What an append returns or throws is passed on as it is.
 */
export function instrumentEventStore(store: EventStore, metrics: Metrics | null): EventStore {
  const duration = metrics?.histogram('trainee_records_event_store_append_duration_seconds');
  const conflicts = metrics?.counter('trainee_records_event_store_conflicts_total');
  const appended = metrics?.counter('trainee_records_events_appended_total');
  const brokenChains = metrics?.counter('trainee_records_event_store_broken_chains_total');
  const measure = async <T>(writes: StreamWrite[], append: (writes: StreamWrite[]) => Promise<T>): Promise<T> => {
    const end = duration?.startTimer();
    try {
      const result = tracingEnabled()
        ? await inSpan('event_store.append', () => append(writes.map((w) => ({ ...w, events: withTraceparent(w.events) }))))
        : await append(writes);
      end?.({ outcome: 'ok' });
      for (const w of writes) appended?.inc({ category: streamCategory(w.streamId) }, w.events.length);
      return result;
    } catch (err) {
      const conflict = err instanceof WrongExpectedVersionError;
      end?.({ outcome: conflict ? 'conflict' : 'error' });
      if (conflict) conflicts?.inc();
      if (err instanceof StreamChainBrokenError) brokenChains?.inc();
      throw err;
    }
  };
  const appendToStream: EventStore['appendToStream'] = (streamId, events, options) =>
    measure([{ streamId, events }], ([w]) => store.appendToStream(streamId, w.events, options));
  const appendToStreams = store.appendToStreams
    ? (writes: StreamWrite[]) => measure(writes, (traced) => store.appendToStreams!(traced))
    : undefined;
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, property) {
      if (property === 'appendToStream') return appendToStream;
      if (property === 'appendToStreams') return appendToStreams;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (!bound.has(property)) bound.set(property, (value as (...args: unknown[]) => unknown).bind(target));
      return bound.get(property);
    },
  });
}

/** The events with the active span's `traceparent` in their metadata (an event that has one keeps it). */
function withTraceparent(events: EventData[]): EventData[] {
  const traceparent = currentTraceparent();
  if (!traceparent) return events;
  return events.map((e) => (e.metadata.traceparent ? e : { ...e, metadata: { ...e.metadata, traceparent } }));
}
