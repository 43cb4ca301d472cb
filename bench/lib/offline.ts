/**
 * The two measurements that are not HTTP: the projection rebuild rate and the replay of a long
 * trainee history. Both run in the harness process on the loaded stores, before the API starts.
 */
import { decodeTraineeEvent, evolveAll, type TraineeEvent, traineeStreamId } from '@app/trainees/decider';
import type { EventStore } from '@app/event-sourcing';
import { Projector, type ReadModelStore } from '@app/runtime/projector';
import { rebuildProjection, type RebuildableStore } from '@app/runtime/rebuild';

/** Result of {@link measureRebuild}. */
export interface RebuildResult {
  /** The initial projection: `Projector.catchUp()` over the whole log into an empty read store. */
  eventsApplied: number;
  seconds: number;
  eventsPerSecond: number;
  checkpoint: number;
  /**
   * `projections rebuild trainees` (admin CLI): `rebuildProjection` blue/green into a new store
   * beside the serving one, to the swap (`seconds`; the old store's drop after it, `dropSeconds`,
   * apart); null where the read store cannot rebuild.
   */
  blueGreen: { projection: string; events: number; seconds: number; eventsPerSecond: number; dropSeconds: number } | null;
}

/**
 * Projects the whole event log into an empty read store with the service's own `Projector.catchUp()`
 * (what the API runs at start on an empty read store: on SQLite, the trainee streams stream by
 * stream, then the provider streams), then rebuilds the trainee projection as `npm run admin --
 * projections rebuild trainees` does (`rebuildProjection`: stream by stream, then the log, into a
 * new store, then the swap), and returns both rates (events applied per second).
 */
export async function measureRebuild(eventStore: EventStore, readModel: ReadModelStore): Promise<RebuildResult> {
  if ((await readModel.checkpoint()) !== 0) throw new Error('measureRebuild needs an empty read store');
  const projector = new Projector(eventStore, readModel, {
    error: (message, context) => process.stderr.write(`projector: ${message} ${JSON.stringify(context ?? {})}\n`),
    warn: (message, context) => process.stderr.write(`projector: ${message} ${JSON.stringify(context ?? {})}\n`),
  });
  const started = performance.now();
  const checkpoint = await projector.catchUp();
  const seconds = (performance.now() - started) / 1000;
  let blueGreen: RebuildResult['blueGreen'] = null;
  if ('beginRebuild' in readModel) {
    const outcome = await rebuildProjection(eventStore, readModel as ReadModelStore & RebuildableStore, 'trainees', { keepOld: false });
    // The rate to the swap: the old store's drop in slices after it is timed apart.
    const toSwap = outcome.seconds - outcome.dropSeconds;
    blueGreen = {
      projection: 'trainees',
      events: outcome.events,
      seconds: toSwap,
      eventsPerSecond: outcome.events / toSwap,
      dropSeconds: outcome.dropSeconds,
    };
  }
  return { eventsApplied: projector.eventsApplied, seconds, eventsPerSecond: projector.eventsApplied / seconds, checkpoint, blueGreen };
}

/** Result of {@link measureHistory}: milliseconds per replay. */
export interface HistoryResult {
  events: number;
  runs: number;
  medianMs: number;
  minMs: number;
  p90Ms: number;
  /** Median of the read (`readStream`) part alone, and of decode + fold. */
  medianReadMs: number;
  medianFoldMs: number;
}

/**
 * Replays one trainee's stream as a command does (`readStream`, `decodeTraineeEvent`, `evolveAll`)
 * `runs` times after 5 warm-up replays, and returns the median and spread.
 */
export async function measureHistory(eventStore: EventStore, traineeId: string, runs = 31): Promise<HistoryResult> {
  const total: number[] = [];
  const read: number[] = [];
  const fold: number[] = [];
  let events = 0;
  for (let i = 0; i < runs + 5; i++) {
    const t0 = performance.now();
    const recorded = await eventStore.readStream(traineeStreamId(traineeId));
    const t1 = performance.now();
    const decoded: TraineeEvent[] = [];
    for (const r of recorded) {
      const e = decodeTraineeEvent(r);
      if (e) decoded.push(e);
    }
    const state = evolveAll(decoded);
    const t2 = performance.now();
    if (!state.exists) throw new Error('history trainee not found');
    events = recorded.length;
    if (i < 5) continue;
    total.push(t2 - t0);
    read.push(t1 - t0);
    fold.push(t2 - t1);
  }
  return {
    events,
    runs,
    medianMs: percentile(total, 0.5),
    minMs: Math.min(...total),
    p90Ms: percentile(total, 0.9),
    medianReadMs: percentile(read, 0.5),
    medianFoldMs: percentile(fold, 0.5),
  };
}

/** The `q` quantile (0–1) of `values`, nearest rank. */
export function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
