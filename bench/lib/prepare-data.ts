/**
 * The benchmark's data (the first part of bench/run.ts): the generator checked against the service's checks
 * of a create body, then the data set loaded (or the one a `--data-dir` keeps reused), the
 * projection rates and the history replay measured, and the trainees of the stream-length
 * measurement appended and projected.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { REGISTRY_PM_CHECKPOINT } from '@app/registry';
import { openStores, type Stores } from '@app/composition';
import { Projector } from '@app/runtime/projector';
import { loadServiceKey, personalDataOptions } from '@app/runtime/process';
import { loadDataset, type Dataset } from './dataset';
import { TraineeGenerator, isoDate, selfCheck } from './generator';
import { measureHistory, measureRebuild, type HistoryResult, type RebuildResult } from './offline';
import type { BenchOptions } from './options';
import { CENSUS_SCENARIO, formatCensus, measureCensus, type CensusResult } from './census';
import { oldestCycle, prepareStreamTrainees, STREAM_LENGTH_SCENARIO, type StreamTrainees } from './stream-length';

/** The harness's projector logs to stderr (nothing is expected). */
const quietProjector = {
  error: (message: string, context?: Record<string, unknown>) =>
    process.stderr.write(`projector: ${message} ${JSON.stringify(context ?? {})}\n`),
  warn: (message: string, context?: Record<string, unknown>) =>
    process.stderr.write(`projector: ${message} ${JSON.stringify(context ?? {})}\n`),
};

/** Where and how the data is prepared. */
export interface DataPlace {
  dataDir: string;
  /** The data set description a `--data-dir` keeps (written with `--keep-data`, reused when present). */
  manifest: string;
  reuse: boolean;
  eventStoreUrl: string | null;
  mongodbUrl: string | null;
  repoRoot: string;
  now: Date;
  log: (message: string) => void;
}

/** What {@link prepareData} loaded and measured: the rebuild only for a data set loaded now, the stream trainees only when selected. */
export interface PreparedData {
  dataset: Dataset;
  rebuild: RebuildResult | null;
  history: HistoryResult;
  streams: StreamTrainees | null;
  /** The census line (bench/lib/census.ts), when selected. */
  census: CensusResult | null;
}

/**
 * Prepares the data of run `o` at `place` and returns it. With a reused data set, `o.trainees` and
 * `o.providers` become the data set's. Throws when the generator makes a body the service refuses.
 */
export async function prepareData(o: BenchOptions, place: DataPlace): Promise<PreparedData> {
  const { dataDir, manifest, reuse, eventStoreUrl, mongodbUrl, now, log } = place;
  const today = isoDate(now.getTime());
  // The generator first, against the service's checks: a refused body is a generator bug.
  const check = new TraineeGenerator(o.seed + 100, []);
  selfCheck(400, (i) => {
    const version = i % 4 === 3 ? ('v2026.1' as const) : ('v2025.0' as const);
    const cycle = Number(today.slice(0, 4)) - (Number(today.slice(5, 7)) >= 8 ? 0 : 1) - (i % 4);
    const start = isoDate(Math.min(Date.UTC(cycle, 8, 1 + (i % 28)), now.getTime()));
    return {
      data: check.traineeInput({
        serial: i,
        version,
        ittStart: start,
        twoYear: i % 3 === 0,
        placements: 1 + (i % 2),
        degrees: 1 + (i % 5 === 0 ? 1 : 0),
        ukprn: '10000001',
      }),
      version,
      today,
    };
  });
  // Sealing personal data with the data dir's sandbox service key, as the API will (docs/DESIGN.md "Personal data").
  const serviceKey = loadServiceKey({ dataDir, dataKeyFile: null }).key;
  const stores = await openStores(
    { dataDir, eventStoreUrl, mongodbUrl },
    { personalData: personalDataOptions({ sealPersonalData: true }, serviceKey) },
  );
  let dataset: Dataset;
  let rebuild: RebuildResult | null = null;
  let history: HistoryResult;
  let streams: StreamTrainees | null = null;
  let census: CensusResult | null = null;
  try {
    if (reuse) {
      dataset = JSON.parse(readFileSync(manifest, 'utf8')) as Dataset;
      log(`bench: reusing the data set of ${manifest} (${dataset.traineeCount} trainees; rebuild not measured)`);
      o.trainees = dataset.traineeCount;
      o.providers = dataset.providers.length;
    } else {
      log(`bench: loading ${o.trainees} trainees over ${o.providers} providers`);
      dataset = await loadDataset({
        trainees: o.trainees,
        providers: o.providers,
        seed: o.seed,
        stores,
        sqliteDataDir: eventStoreUrl ? null : dataDir,
        repoRoot: place.repoRoot,
        now,
        log,
      });
      log(
        `bench: loaded ${dataset.eventCount} events in ${dataset.loadSeconds.toFixed(1)} s (${dataset.regenerated} bodies regenerated, ${dataset.refusedActions} planned actions refused)`,
      );
      log(`bench:   trainees by state ${JSON.stringify(dataset.traineesByState)}`);
      log('bench: projection rates (fresh read store: Projector.catchUp over the whole log; then projections rebuild trainees)');
      rebuild = await measureRebuild(stores.eventStore, stores.readModel);
      log(
        `bench:   initial projection: ${rebuild.eventsApplied} events in ${rebuild.seconds.toFixed(1)} s = ${Math.round(rebuild.eventsPerSecond)} events/s`,
      );
      if (rebuild.blueGreen) {
        log(
          `bench:   projections rebuild trainees: ${rebuild.blueGreen.events} events in ${rebuild.blueGreen.seconds.toFixed(1)} s = ${Math.round(rebuild.blueGreen.eventsPerSecond)} events/s; ` +
            `the old store dropped in slices in ${rebuild.blueGreen.dropSeconds.toFixed(1)} s`,
        );
      }
      if (o.keepData) writeFileSync(manifest, JSON.stringify(dataset));
    }
    await skipRegistryBacklog(stores, log);
    history = await measureHistory(stores.eventStore, dataset.historyTraineeId);
    log(`bench: history replay of ${history.events} events: median ${history.medianMs.toFixed(2)} ms`);
    if (o.only === null || o.only.includes(CENSUS_SCENARIO)) {
      const open = () =>
        openStores({ dataDir, eventStoreUrl, mongodbUrl }, { personalData: personalDataOptions({ sealPersonalData: true }, serviceKey) });
      census = await measureCensus(open, dataset, new Date());
      log(`bench: ${formatCensus(census)}`);
    }
    if (o.only === null || o.only.includes(STREAM_LENGTH_SCENARIO)) {
      const t0 = performance.now();
      streams = await prepareStreamTrainees({
        eventStore: stores.eventStore,
        sqliteDataDir: eventStoreUrl ? null : dataDir,
        personalData: stores.personalData,
        provider: dataset.providers[0],
        schools: dataset.schools,
        cycle: oldestCycle(Object.keys(dataset.traineesByCycle), today),
        loadSeconds: o.warmup + o.duration,
        // A reused data set holds the trainees of earlier runs: other seeds, other ids.
        seed: o.seed + 5 + (reuse ? Date.now() % 1_000_000 : 0),
        now,
      });
      // Like the loaded trainees, these are past the registry process manager (no TRN work mid-run),
      // and projected here: the API starts, as a restarted service does, on built projections.
      await stores.consumerCheckpoints.writeCheckpoint(REGISTRY_PM_CHECKPOINT, await stores.eventStore.headPosition());
      await new Projector(stores.eventStore, stores.readModel, quietProjector).catchUp();
      log(
        `bench: ${STREAM_LENGTH_SCENARIO}: appended ${streams.short.ids.length} trainees of ${streams.short.events} events and ` +
          `${streams.long.ids.length} of ${streams.long.events} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
    }
  } finally {
    await stores.close();
  }
  return { dataset, rebuild, history, streams, census };
}

/**
 * Moves the registry process manager's checkpoint to the log's head. It is caught up in a
 * steady-state service: the API must not walk the loaded log for TRNs it already has, nor, on a
 * reused data dir, the TRN requests of earlier runs' creates. Those wait an hour in the sandbox
 * registry (`REGISTRY_TRN_DELAY_MS`), so an earlier run's API left them pending; an hour on, every
 * API started on a copy of the dir would answer them all while its requests are measured (40k of
 * them on a 20k data dir after a day of runs, work that is the same in both APIs of a pair and so
 * dilutes the ratio the `sealing` and `chain` lines measure).
 */
async function skipRegistryBacklog(stores: Stores, log: (message: string) => void): Promise<void> {
  const [head, checkpoint] = await Promise.all([
    stores.eventStore.headPosition(),
    stores.consumerCheckpoints.readCheckpoint(REGISTRY_PM_CHECKPOINT),
  ]);
  if (checkpoint >= head) return;
  await stores.consumerCheckpoints.writeCheckpoint(REGISTRY_PM_CHECKPOINT, head);
  if (checkpoint > 0) log(`bench: the registry process manager's checkpoint moved from position ${checkpoint} to the log's head, ${head}`);
}
