import { LOG_START, type EventStore, type LogPosition, type RecordedEvent } from '@app/event-sourcing';
import { type ProjectionInfo, type ProjectionName, PROJECTED_STREAMS, buildStreams, type StreamBuild } from '@app/runtime/projector';
import { keepsRebuildRuns, type RebuildRun } from './rebuild-runs';

/** Built beside the store that serves. */
export interface RebuildTarget {
  name: ProjectionName;
  /** E.g. `v2`. */
  store: string;
  version: number;
  /** Resumes an interrupted rebuild. */
  checkpoint(): Promise<LogPosition>;
  /** To the new store only. */
  applyBatch(events: RecordedEvent[]): Promise<void>;
  /**
   * Catches up with `readAfter` holding the store's write lock, then serves the new store atomically; drops the old unless `keepOld`.
   * The old store's name, and the seconds a drop after the swap took where the store drops without holding writes (SQLite).
   */
  swap(
    readAfter: (position: LogPosition) => Promise<RecordedEvent[]>,
    options: { keepOld: boolean },
  ): Promise<{ previous: string; dropped: boolean; dropSeconds?: number }>;
  /** Documents built stream by stream before the log is read in position order, where the store can. */
  byStream?: StreamBuild;
}

/** docs/DESIGN.md "Projection versions and blue/green rebuilds". */
export interface RebuildableStore {
  projectionInfo(): Promise<ProjectionInfo[]>;
  /** Or resumes the one in progress. */
  beginRebuild(name: ProjectionName): Promise<RebuildTarget>;
}

export interface RebuildProgress {
  /** `streams` (position stays `LOG_START`), then `log`. */
  phase: 'streams' | 'log';
  /** In this run. */
  done: number;
  /** Position reached, and the log's head when the run started. */
  position: LogPosition;
  head: LogPosition;
}

export interface RebuildOutcome {
  store: string;
  interrupted: boolean;
  events: number;
  /** The old store's drop included. */
  seconds: number;
  previous: string | null;
  dropped: boolean;
  /** 0 where the store drops within the swap, or kept it. */
  dropSeconds: number;
}

/**
 * Rebuilds `name` into a new store while the old one serves and the projector runs: by stream first where both stores can (SQLite),
 * then in position order until the head is near, then swaps. `shouldStop()` stops between batches; running again resumes. Progress is
 * recorded at most every second where the store keeps runs (docs/observability.md "Rebuilds").
 */
export async function rebuildProjection(
  eventStore: EventStore,
  store: RebuildableStore,
  name: ProjectionName,
  options: { keepOld?: boolean; batchSize?: number; onProgress?: (p: RebuildProgress) => void; shouldStop?: () => boolean } = {},
): Promise<RebuildOutcome> {
  const started = process.hrtime.bigint();
  const batchSize = options.batchSize ?? REBUILD_BATCH_SIZE;
  const target = await store.beginRebuild(name);
  const head = await eventStore.headPosition();
  let position = await target.checkpoint();
  let done = 0;
  const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
  const record = runRecorder(store, name, target.store);
  const progress = (p: RebuildProgress) => {
    options.onProgress?.(p);
    record('running', p.done, seconds());
  };
  const interrupted = async () => {
    await record('interrupted', done, seconds(), true);
    return { store: target.store, interrupted: true, events: done, seconds: seconds(), previous: null, dropped: false, dropSeconds: 0 };
  };
  record('running', 0, 0);
  if (position === 0 && target.byStream && eventStore.readStreamsByPrefix) {
    const phase = await buildStreams(eventStore, target.byStream, {
      batchSize,
      shouldStop: options.shouldStop,
      onBatch: (n) => progress({ phase: 'streams', done: n, position: LOG_START, head }),
    });
    done = phase.done;
    if (phase.interrupted) return interrupted();
    await target.byStream.finish(phase.toPosition);
    position = phase.toPosition;
    progress({ phase: 'log', done, position, head });
  }
  for (;;) {
    if (options.shouldStop?.()) return interrupted();
    const events = await eventStore.readAll({ fromPosition: position, maxCount: batchSize, filter: PROJECTED_STREAMS });
    if (events.length === 0) break;
    await target.applyBatch(events);
    position = events[events.length - 1].position;
    done += events.length;
    progress({ phase: 'log', done, position, head });
    // On past the start's head until the live head is near: the swap applies the rest holding the write lock.
    if (events.length < SWAP_WITHIN_EVENTS && position >= head) break;
  }
  const readAfter = async (from: LogPosition) => {
    const events = await eventStore.readAll({ fromPosition: from, maxCount: batchSize, filter: PROJECTED_STREAMS });
    done += events.length;
    return events;
  };
  const { previous, dropped, dropSeconds = 0 } = await target.swap(readAfter, { keepOld: options.keepOld ?? false });
  await record('finished', done, seconds(), true);
  return { store: target.store, interrupted: false, events: done, seconds: seconds(), previous, dropped, dropSeconds };
}

/** At most once a second unless `force`d, in order; settles once stored. Failures are ignored: the rebuild goes on unrecorded. */
function runRecorder(store: RebuildableStore, projection: ProjectionName, storeName: string) {
  const startedAt = new Date();
  let last = -Infinity;
  let writing: Promise<void> = Promise.resolve();
  return (state: RebuildRun['state'], events: number, seconds: number, force = false): Promise<void> => {
    if (!keepsRebuildRuns(store) || (!force && Date.now() - last < 1000)) return writing;
    last = Date.now();
    const run: RebuildRun = {
      projection,
      store: storeName,
      state,
      events,
      started_at: startedAt.toISOString(),
      updated_at: new Date().toISOString(),
      seconds,
    };
    writing = writing.then(() => store.rebuildRuns.record(run)).catch(() => undefined);
    return writing;
  };
}

/** About the most events the swap applies holding the write lock. */
const SWAP_WITHIN_EVENTS = 200;

/** Neither 5,000 nor 50,000 is faster; the store writes each in shorter transactions. */
const REBUILD_BATCH_SIZE = 20_000;
