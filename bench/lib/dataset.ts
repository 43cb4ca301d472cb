/**
 * Loads a realistic data set straight into the event store (not through HTTP, which would take an
 * hour for 100k trainees): providers and tokens through `ProviderOperations`, then per trainee the
 * events the service itself would have appended — the registration claim, `RegisterTrainee` (with
 * placements and degrees), TRNs from the registry, updates, deferrals, withdrawals, recommendations
 * and awards — each decided by the domain's own `decide` and wrapped by `toEventData`, so every
 * event is one the service could have written. Trainees are spread over providers (skewed sizes),
 * API versions (per provider) and the current and three previous academic cycles.
 *
 * Appends are interleaved in time order within chunks of trainees, so the global log mixes
 * trainees as a real one does (what the projector's batching sees). One extra trainee carries a
 * 1,000-event stream for the history replay measurement.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { academicCycleOf } from '@app/trainees/decider';
import type { School } from '@app/trainees/record';
import { bulkStore } from './bulk-store';
import { importSchoolsCsv } from '@app/schools';
import { ProviderOperations } from '@app/providers/write';
import type { Stores } from '@app/composition';
import { appendHistoryTrainee, buildTrainee, planTrainee, type PendingAppend, type Plan, type ProviderRef } from './dataset-trainees';
import { TraineeGenerator, isoDate } from './generator';
import { Random } from './random';

/** Trainees whose events are interleaved by time before appending. */
const CHUNK = 1000;

/** What was loaded, for the scenarios and the report. */
export interface Dataset {
  providers: ProviderRef[];
  currentCycle: number;
  traineeCount: number;
  /** Events in the store after loading (all streams, claims included). */
  eventCount: number;
  appends: number;
  /** Trainee events by type. */
  eventsByType: Record<string, number>;
  /** Trainees by final state. */
  traineesByState: Record<string, number>;
  /** Trainees by start cycle. */
  traineesByCycle: Record<string, number>;
  /** Planned lifecycle actions the domain refused (kept small; should be 0 or close). */
  refusedActions: number;
  /** Generated bodies replaced because the domain refused them or they duplicated another. */
  regenerated: number;
  historyTraineeId: string;
  historyProvider: string;
  loadSeconds: number;
  schools: School[];
}

/** Options of {@link loadDataset}. */
export interface LoadOptions {
  trainees: number;
  providers: number;
  seed: number;
  /** The stores the API will use (openStores of the same configuration). */
  stores: Stores;
  /** SQLite data dir when the event store is the embedded one (appends then skip the fsync per commit). */
  sqliteDataDir: string | null;
  repoRoot: string;
  now: Date;
  log: (message: string) => void;
}
/**
 * Loads `trainees` trainees over `providers` providers into `stores` (and the sample schools into
 * the schools directory) and returns what the scenarios need. Throws if the domain refuses what the
 * generator made more than a few times in a row (a generator bug, not data to skip).
 */
export async function loadDataset(options: LoadOptions): Promise<Dataset> {
  const started = performance.now();
  const { stores, now, log } = options;
  const nowMs = now.getTime();
  const random = new Random(options.seed);
  const schools = await loadSchools(stores, options.repoRoot);
  const schoolMap = new Map(schools.map((s) => [s.urn, s]));
  const generator = new TraineeGenerator(options.seed + 1, schools);

  // Providers and tokens, as the admin CLI registers them.
  const operations = new ProviderOperations(stores.eventStore, stores.readModel);
  const providers: ProviderRef[] = [];
  for (let p = 0; p < options.providers; p++) {
    const ukprn = String(10_100_000 + p * 7);
    const name = `Benchmark Teacher Training Provider ${p + 1}`;
    await operations.addProvider(ukprn, name);
    const issued = await operations.issueToken(ukprn, 'sandbox');
    providers.push({
      ukprn,
      name,
      token: issued.token,
      tokenId: issued.token_id,
      version: p % 4 === 3 ? 'v2026.1' : 'v2025.0',
      trainees: [],
    });
  }

  // The bulk appends: on SQLite a second connection without the per-commit fsync (see bulkStore).
  const bulk = bulkStore(options.sqliteDataDir, stores.eventStore, stores.personalData);
  const fast = bulk.store;
  const currentCycle = academicCycleOf(isoDate(nowMs));
  const stats = {
    appends: 0,
    eventsByType: {} as Record<string, number>,
    traineesByState: {} as Record<string, number>,
    traineesByCycle: {} as Record<string, number>,
    refusedActions: 0,
    regenerated: 0,
  };
  const seenDuplicates = new Set<string>();
  const providerWeights = providers.map((_, k) => 1 / (k + 3));

  try {
    const plans: Plan[] = [];
    for (let serial = 0; serial < options.trainees; serial++) {
      plans.push(planTrainee(random, serial, providerWeights, currentCycle, nowMs));
    }
    plans.sort((a, b) => a.createdMs - b.createdMs);

    let lastReport = performance.now();
    for (let from = 0; from < plans.length; from += CHUNK) {
      const pending: PendingAppend[] = [];
      for (const plan of plans.slice(from, from + CHUNK)) {
        const provider = providers[plan.provider];
        const ref = buildTrainee(plan, provider, generator, random, schoolMap, nowMs, seenDuplicates, stats, pending);
        provider.trainees.push(ref);
        stats.traineesByState[ref.state] = (stats.traineesByState[ref.state] ?? 0) + 1;
        stats.traineesByCycle[ref.cycle] = (stats.traineesByCycle[ref.cycle] ?? 0) + 1;
      }
      // Appends on SQLite settle synchronously: yield once per chunk so signals (Ctrl-C) are handled.
      await new Promise((r) => setImmediate(r));
      pending.sort((a, b) => a.at - b.at);
      for (const a of pending) {
        await fast.appendToStream(a.stream, a.events, { expectedRevision: a.expected });
        stats.appends++;
      }
      if (performance.now() - lastReport > 5000) {
        lastReport = performance.now();
        log(
          `  loaded ${Math.min(from + CHUNK, plans.length)} / ${plans.length} trainees (${((performance.now() - started) / 1000).toFixed(0)} s)`,
        );
      }
    }

    const history = await appendHistoryTrainee(fast, providers[0], generator, schoolMap, nowMs, stats);
    const eventCount = await stores.eventStore.headPosition();
    return {
      providers,
      currentCycle,
      traineeCount: options.trainees,
      eventCount,
      appends: stats.appends,
      eventsByType: stats.eventsByType,
      traineesByState: stats.traineesByState,
      traineesByCycle: stats.traineesByCycle,
      refusedActions: stats.refusedActions,
      regenerated: stats.regenerated,
      historyTraineeId: history,
      historyProvider: providers[0].ukprn,
      loadSeconds: (performance.now() - started) / 1000,
      schools,
    };
  } finally {
    await bulk.close();
  }
}

/** Imports `samples/schools.csv` into the directory (as the sandbox does) and returns its schools. */
async function loadSchools(stores: Stores, repoRoot: string): Promise<School[]> {
  const file = join(repoRoot, 'samples', 'schools.csv');
  if ((await stores.schools.count()) === 0) await importSchoolsCsv(createReadStream(file), stores.schools);
  const urns = readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.split(',')[0])
    .filter((u) => /^\d{6}$/.test(u));
  return [...(await stores.schools.findByUrns(urns)).values()];
}
