import { LOG_START, type EventStore, type LogPosition, type RecordedEvent } from '@app/event-sourcing';
import { PROVIDER_STREAM_PREFIX } from '@app/providers/decider';
import type { ProjectionStore, StreamBuild, StreamPhase } from './projection-store.port';

/**
 * Runs a stream phase: from the stored cursor (or from the first stream, with the log's head as the
 * snapshot), reads whole streams with `readStreamsByPrefix` in batches of about `batchSize` events
 * and hands each batch to `applyStreams` (or lets the build run the phase itself, see
 * {@link StreamBuild.run}). Does not call `finish` (the caller does, when its own phase is done).
 * Stops between batches when `shouldStop()` turns true.
 */
export async function buildStreams(
  eventStore: EventStore,
  build: StreamBuild,
  options: { batchSize: number; shouldStop?: () => boolean; onBatch?: (done: number) => void },
): Promise<StreamPhase> {
  const own = build.run?.(eventStore, options);
  if (own) return own;
  const from = await build.cursor();
  const toPosition = from?.toPosition ?? (await eventStore.headPosition());
  let lastStream = from?.lastStream ?? null;
  let done = 0;
  for (;;) {
    if (options.shouldStop?.()) return { toPosition, done, interrupted: true };
    const events = await eventStore.readStreamsByPrefix!({
      streamPrefix: build.streamPrefix,
      afterStream: lastStream,
      toPosition,
      maxCount: options.batchSize,
    });
    if (events.length === 0) return { toPosition, done, interrupted: false };
    lastStream = events[events.length - 1].streamId;
    await build.applyStreams(events, { toPosition, lastStream });
    done += events.length;
    options.onBatch?.(done);
  }
}

/**
 * The first catch-up of a read store that has applied nothing (`ProjectionStore.initialStreamBuild`,
 * e.g. the API's first start on an empty embedded store): builds the trainee documents stream by
 * stream up to the log's head `H`, applies the provider streams' events up to `H` in position
 * order (read by stream and sorted, see `providerStreams`), then moves every checkpoint to `H`.
 * Returns the number of events applied, or null (and logs a failure) when the store or the event
 * store cannot, when `shouldStop` cut it short, or when it failed: the caller then catches up in
 * position order from the stored checkpoint, which holds only what was fully applied (so a failing
 * event is retried there, and never skipped).
 */
export async function buildEmptyStore(
  eventStore: EventStore,
  store: ProjectionStore,
  options: { batchSize: number; shouldStop: () => boolean; warn: (message: string, context: Record<string, unknown>) => void },
): Promise<number | null> {
  const build = eventStore.readStreamsByPrefix ? await store.initialStreamBuild?.() : null;
  if (!build) return null;
  try {
    const phase = await buildStreams(eventStore, build, options);
    if (phase.interrupted) return null;
    let done = phase.done;
    const providerEvents = await providerStreams(eventStore, phase.toPosition);
    if (providerEvents) {
      for (let i = 0; i < providerEvents.length; i += options.batchSize) {
        const events = providerEvents.slice(i, i + options.batchSize);
        await store.applyBatch(events);
        done += events.length;
      }
    } else {
      for (let from = LOG_START; ;) {
        const read = await eventStore.readAll({ fromPosition: from, maxCount: options.batchSize, filter: PROVIDER_STREAMS });
        const events = read.filter((e) => e.position <= phase.toPosition);
        if (events.length === 0) break;
        await store.applyBatch(events);
        done += events.length;
        from = events[events.length - 1].position;
      }
    }
    await build.finish(phase.toPosition);
    return done;
  } catch (err) {
    options.warn('building the empty read store stream by stream failed; catching up in position order', {
      error: err instanceof Error ? err.message : String(err),
    });
    await build.abandon?.();
    return null;
  }
}

const PROVIDER_STREAMS = { streamPrefixes: [PROVIDER_STREAM_PREFIX] };

/** Provider events read whole by stream for the first build; more than this and the log is scanned by position instead. */
const PROVIDER_EVENTS_IN_MEMORY = 100_000;

/**
 * Every provider stream's events up to `toPosition`, in position order: read by stream on the
 * stream index (a scan of the log by position reads every event to find a few: 2.4 s for 75 among
 * the 841k events of the 100,000-trainee data set of `npm run bench`), then sorted. Null when there
 * are more than {@link PROVIDER_EVENTS_IN_MEMORY} (the caller scans instead, in batches).
 */
async function providerStreams(eventStore: EventStore, toPosition: LogPosition): Promise<RecordedEvent[] | null> {
  const events: RecordedEvent[] = [];
  for (let afterStream: string | null = null; ;) {
    const batch = await eventStore.readStreamsByPrefix!({
      streamPrefix: PROVIDER_STREAM_PREFIX,
      afterStream,
      toPosition,
      maxCount: 10_000,
    });
    if (batch.length === 0) break;
    for (const e of batch) events.push(e);
    if (events.length > PROVIDER_EVENTS_IN_MEMORY) return null;
    afterStream = batch[batch.length - 1].streamId;
  }
  return events.sort((a, b) => a.position - b.position);
}
