import { LOG_START, type EventStore, type LogPosition, type RecordedEvent } from '@app/event-sourcing';
import { type ProjectionInfo, type ProjectionName, PROJECTED_STREAMS, buildStreams, type StreamBuild } from '@app/runtime/projector';
import { keepsRebuildRuns, type RebuildRun } from './rebuild-runs';

/** A new store of one projection being built beside the one that serves. */
export interface RebuildTarget {
  name: ProjectionName;
  /** The new store's name (e.g. `v2`). */
  store: string;
  version: number;
  /** The position of the last event applied to the new store (resumes an interrupted rebuild). */
  checkpoint(): Promise<LogPosition>;
  /** Applies a batch to the new store only, with its checkpoint. */
  applyBatch(events: RecordedEvent[]): Promise<void>;
  /**
   * Catches the new store up to the log's head with `readAfter(checkpoint)` while holding the
   * store's write lock, then makes it the one that serves, atomically; drops the old store unless
   * `keepOld`. Returns the previous store's name, and where the store drops it after the swap
   * without holding its writes (SQLite: in slices), the time the drop took (s).
   */
  swap(
    readAfter: (position: LogPosition) => Promise<RecordedEvent[]>,
    options: { keepOld: boolean },
  ): Promise<{ previous: string; dropped: boolean; dropSeconds?: number }>;
  /** Where the store can: its documents built stream by stream before the log is read in position order. */
  byStream?: StreamBuild;
}

/** A read store whose projections can be rebuilt blue/green (docs/DESIGN.md "Read models"). */
export interface RebuildableStore {
  projectionInfo(): Promise<ProjectionInfo[]>;
  /** Starts a rebuild of `name` into a new store, or resumes the one in progress. */
  beginRebuild(name: ProjectionName): Promise<RebuildTarget>;
}

export interface RebuildProgress {
  /** `streams` while documents are built stream by stream (`position` stays `LOG_START`), then `log`. */
  phase: 'streams' | 'log';
  /** Events applied to the new store in this run. */
  done: number;
  /** Position reached and the log's head when the run started. */
  position: LogPosition;
  head: LogPosition;
}

export interface RebuildOutcome {
  store: string;
  interrupted: boolean;
  events: number;
  /** The whole run, the old store's drop included. */
  seconds: number;
  previous: string | null;
  dropped: boolean;
  /** Of `seconds`, the time the old store's drop took after the swap (0 where the store drops it within the swap or kept it). */
  dropSeconds: number;
}

/**
 * Rebuilds projection `name` from the event log into a new store while the old one keeps serving
 * and the live projector keeps running: when the target can build by stream and the event store can
 * read by stream (both SQLite), first builds the documents stream by stream up to the log's head
 * at the start (from the stored cursor when resuming); then reads the log in position order, in
 * batches, from the new store's checkpoint, until a read finds the head near, and swaps (see
 * {@link RebuildTarget.swap}). Stops between batches when `shouldStop()` turns true; running it
 * again resumes where it stopped.
 * Where the store keeps rebuild runs, the run's progress is recorded there at most every second
 * (docs/observability.md "Rebuilds"); a failure to record it is ignored.
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
    // Past the head of the start, on until the live head is near: the swap applies the rest
    // holding the write lock, and what the log gained meanwhile should not be much.
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

/**
 * Records a run's state in the store's rebuild runs, when it keeps them: at most once a second
 * unless `force`d, the writes one after another in order; the promise settles once this report
 * (or the last one written) is stored. Failures are ignored: the rebuild goes on without its record.
 */
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

/** How near the log's head the rebuild reads before it swaps (about the most events it applies holding the write lock). */
const SWAP_WITHIN_EVENTS = 200;

/**
 * Events per batch read by a rebuild (default of `batchSize`): neither 5,000 nor 50,000 is faster.
 * The store writes each in shorter transactions.
 */
const REBUILD_BATCH_SIZE = 20_000;
