/**
 * `npm run bench`: the benchmark suite (BENCHMARKS.md). Loads a realistic data set into a temporary data
 * dir, measures the projection rebuild rate and a 1,000-event history replay, starts the built API
 * on that data dir in its own process, and drives each HTTP scenario with autocannon from this
 * process, alternating with the same requests against a bare `node:http` ceiling server (its own
 * process) answering bytes of the same size; then PATCHes trainees of 3,000 events against trainees
 * of 10 (`patch_long_stream`, bench/lib/stream-length.ts). Prints a table and writes
 * `bench/results/<date>.json`.
 *
 *   npm run bench -- [--trainees 100000] [--providers 25] [--duration 10] [--connections 32]
 *                    [--warmup 2] [--rounds 2] [--soak 0] [--only get,list,...] [--cpu-prof]
 *                    [--label name] [--json-only] [--compare results.json] [--no-save] [--keep-data] [--data-dir dir] [--seed 7]
 *
 * EVENTSTORE_URL / MONGODB_URL, when set, select those stores for the loader and the API (use
 * empty, dedicated instances: the data set is loaded into them).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { join, resolve } from 'node:path';
import { REGISTRY_PM_CHECKPOINT } from '@app/registry';
import { openStores } from '@app/stores';
import { Projector } from '@app/runtime/projector';
import { TraineeGenerator, isoDate, selfCheck } from './lib/generator';
import { loadDataset, type Dataset } from './lib/dataset';
import { measureHistory, measureRebuild, type RebuildResult } from './lib/offline';
import { ApiProcess, CeilingProcess } from './lib/processes';
import { FLOOD_SCENARIO, FLOOD_TOKEN_LIMIT_PER_MINUTE, measureFlood, type FloodResult } from './lib/flood';
import { measureMetricsOverhead, METRICS_SCENARIO, type MetricsOverheadResult } from './lib/metrics-overhead';
import { buildScenarios, type Scenario } from './lib/scenarios';
import { formatComparison } from './lib/compare';
import { combineLoads, probe, runLoad, type LoadResult, type LoadSettings } from './lib/load';
import { checkTargets, formatTable, type BenchResults, type ScenarioResult, type SoakResult } from './lib/report';
import { formatProfile, summariseProfile, type ProfileSummary } from './lib/profile';
import {
  measureStreamLength,
  oldestCycle,
  prepareStreamTrainees,
  STREAM_LENGTH_SCENARIO,
  type StreamLengthResult,
  type StreamTrainees,
} from './lib/stream-length';

const BENCH_DIR = __dirname;
const REPO_ROOT = resolve(BENCH_DIR, '..');
const SCENARIO_NAMES = [
  'get',
  'list',
  'list_filtered',
  'create',
  'patch',
  'sync',
  'feed',
  STREAM_LENGTH_SCENARIO,
  FLOOD_SCENARIO,
  METRICS_SCENARIO,
];
/** The data set description kept in a `--data-dir`, so a later run can reuse the loaded stores. */
const MANIFEST = 'bench-dataset.json';
/** The harness's projector logs to stderr (nothing is expected). */
const quietProjector = {
  error: (message: string, context?: Record<string, unknown>) =>
    process.stderr.write(`projector: ${message} ${JSON.stringify(context ?? {})}\n`),
  warn: (message: string, context?: Record<string, unknown>) =>
    process.stderr.write(`projector: ${message} ${JSON.stringify(context ?? {})}\n`),
};

/** Command-line options of the harness. */
export interface BenchOptions {
  trainees: number;
  providers: number;
  duration: number;
  connections: number;
  warmup: number;
  /** Service and ceiling runs alternate this many times per scenario (each `duration / rounds` long). */
  rounds: number;
  soak: number;
  only: string[] | null;
  cpuProf: boolean;
  label: string | null;
  jsonOnly: boolean;
  /** A results file to compare this run with (bench/lib/compare.ts), or null. */
  compare: string | null;
  save: boolean;
  keepData: boolean;
  seed: number;
  /** Data dir to load into and keep, or to reuse when it holds a data set of an earlier run. */
  dataDir: string | null;
}

/** Parses `argv` (without node and the script); exits 2 with a message on a bad flag. */
export function parseArgs(argv: string[]): BenchOptions {
  const o: BenchOptions = {
    trainees: 100_000,
    providers: 25,
    duration: 10,
    connections: 32,
    warmup: 2,
    rounds: 2,
    soak: 0,
    only: null,
    cpuProf: false,
    label: null,
    jsonOnly: false,
    compare: null,
    save: true,
    keepData: false,
    seed: 7,
    dataDir: null,
  };
  const fail = (message: string): never => {
    process.stderr.write(
      `${message}\nusage: npm run bench -- [--trainees N] [--providers N] [--duration s] [--connections N] [--warmup s] [--rounds N] [--soak min] [--only a,b] [--cpu-prof] [--label name] [--json-only] [--compare results.json] [--no-save] [--keep-data] [--data-dir dir] [--seed N]\n`,
    );
    process.exit(2);
  };
  const num = (flag: string, value: string | undefined, min: number): number => {
    const n = Number(value);
    if (value === undefined || !Number.isFinite(n) || n < min) fail(`${flag} needs a number ≥ ${min}, got ${value ?? 'nothing'}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    switch (flag) {
      case '--trainees':
        o.trainees = Math.floor(num(flag, argv[++i], 10));
        break;
      case '--providers':
        o.providers = Math.floor(num(flag, argv[++i], 1));
        break;
      case '--duration':
        o.duration = num(flag, argv[++i], 1);
        break;
      case '--connections':
        o.connections = Math.floor(num(flag, argv[++i], 1));
        break;
      case '--warmup':
        o.warmup = num(flag, argv[++i], 0);
        break;
      case '--rounds':
        o.rounds = Math.floor(num(flag, argv[++i], 1));
        break;
      case '--soak':
        o.soak = num(flag, argv[++i], 0);
        break;
      case '--seed':
        o.seed = Math.floor(num(flag, argv[++i], 0));
        break;
      case '--only': {
        const names = (argv[++i] ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        const unknown = names.filter((n) => n !== 'none' && !SCENARIO_NAMES.includes(n));
        if (unknown.length > 0) fail(`--only: unknown scenario ${unknown.join(', ')} (known: ${SCENARIO_NAMES.join(', ')}, none)`);
        o.only = names;
        break;
      }
      case '--label': {
        const label = argv[++i] ?? '';
        if (!/^[\w.-]+$/.test(label)) fail('--label needs letters, digits, dots, dashes or underscores');
        o.label = label;
        break;
      }
      case '--cpu-prof':
        o.cpuProf = true;
        break;
      case '--compare': {
        const file = argv[++i] ?? '';
        if (!existsSync(file)) fail(`--compare needs a results file, got ${JSON.stringify(file)}`);
        o.compare = file;
        break;
      }
      case '--json-only':
        o.jsonOnly = true;
        break;
      case '--no-save':
        o.save = false;
        break;
      case '--keep-data':
        o.keepData = true;
        break;
      case '--data-dir': {
        const dir = argv[++i];
        if (!dir) fail('--data-dir needs a directory');
        o.dataDir = resolve(dir!);
        o.keepData = true;
        break;
      }
      default:
        fail(`unknown flag ${flag}`);
    }
  }
  return o;
}

/** Progress goes to stderr, so stdout carries only the table (or the JSON with --json-only). */
function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** Runs the whole benchmark and returns its results. */
export async function runBench(o: BenchOptions): Promise<BenchResults> {
  const startedAt = new Date();
  log('bench: building the API if sources changed (scripts/build-if-needed.js)');
  execFileSync(process.execPath, [join(REPO_ROOT, 'scripts', 'build-if-needed.js')], { stdio: ['ignore', 'inherit', 'inherit'] });

  const dataDir = o.dataDir ?? mkdtempSync(join(os.tmpdir(), 'trainee-records-bench-'));
  const manifest = join(dataDir, MANIFEST);
  const reuse = existsSync(manifest);
  const eventStoreUrl = process.env.EVENTSTORE_URL || null;
  const mongodbUrl = process.env.MONGODB_URL || null;
  const backends = { eventStore: eventStoreUrl ? 'eventstoredb' : 'sqlite', readModel: mongodbUrl ? 'mongodb' : 'sqlite' };
  log(`bench: data dir ${dataDir}; event store ${backends.eventStore}, read models ${backends.readModel}`);
  const now = new Date();
  const today = isoDate(now.getTime());

  let api: ApiProcess | null = null;
  let ceiling: CeilingProcess | null = null;
  const cleanup = async (): Promise<void> => {
    await api?.stop().catch(() => undefined);
    await ceiling?.stop().catch(() => undefined);
  };
  const onSignal = (): void => {
    void cleanup().then(() => {
      if (!o.keepData) rmSync(dataDir, { recursive: true, force: true });
      process.exit(130);
    });
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    // 1. Data: check the generator against the domain's validation, then load.
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
    const stores = await openStores({ dataDir, eventStoreUrl, mongodbUrl });
    let dataset: Dataset;
    let rebuild: RebuildResult | null = null;
    let history;
    let streams: StreamTrainees | null = null;
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
          repoRoot: REPO_ROOT,
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
            `bench:   projections rebuild trainees: ${rebuild.blueGreen.events} events in ${rebuild.blueGreen.seconds.toFixed(1)} s = ${Math.round(rebuild.blueGreen.eventsPerSecond)} events/s`,
          );
        }
        // The registry process manager is caught up in a steady-state service: do not make the API
        // walk the loaded log for TRNs it already has.
        await stores.readModel.writeCheckpoint(REGISTRY_PM_CHECKPOINT, dataset.eventCount);
        if (o.keepData) writeFileSync(manifest, JSON.stringify(dataset));
      }
      history = await measureHistory(stores.eventStore, dataset.historyTraineeId);
      log(`bench: history replay of ${history.events} events: median ${history.medianMs.toFixed(2)} ms`);
      if (o.only === null || o.only.includes(STREAM_LENGTH_SCENARIO)) {
        const t0 = performance.now();
        streams = await prepareStreamTrainees({
          eventStore: stores.eventStore,
          sqliteDataDir: eventStoreUrl ? null : dataDir,
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
        await stores.readModel.writeCheckpoint(REGISTRY_PM_CHECKPOINT, await stores.eventStore.headPosition());
        await new Projector(stores.eventStore, stores.readModel, quietProjector).catchUp();
        log(
          `bench: ${STREAM_LENGTH_SCENARIO}: appended ${streams.short.ids.length} trainees of ${streams.short.events} events and ` +
            `${streams.long.ids.length} of ${streams.long.events} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
        );
      }
    } finally {
      await stores.close();
    }

    // 2. The two servers.
    const profileDir = o.cpuProf ? join(BENCH_DIR, 'results', 'profiles') : null;
    if (profileDir) mkdirSync(profileDir, { recursive: true });
    const profileStart = Date.now();
    const env: Record<string, string> = {};
    if (eventStoreUrl) env.EVENTSTORE_URL = eventStoreUrl;
    if (mongodbUrl) env.MONGODB_URL = mongodbUrl;
    log('bench: starting the API');
    api = await ApiProcess.start({ repoRoot: REPO_ROOT, dataDir, env, cpuProfDir: profileDir, logFile: join(dataDir, 'api.log') });
    const apiStartMs = api.startMs;
    const afterStart = api.sample()?.rss ?? null;
    log(`bench: API pid ${api.pid} healthy after ${(api.startMs / 1000).toFixed(1)} s, RSS ${afterStart?.toFixed(0)} MiB`);
    ceiling = await CeilingProcess.start(BENCH_DIR);
    const sampler = setInterval(() => api?.sample(), 1000);
    sampler.unref();

    // 3. Scenarios.
    const generator = new TraineeGenerator(o.seed + 2 + (reuse ? Date.now() % 1_000_000 : 0), dataset.schools, { uniqueFirstNames: true });
    // A reused data set already holds the trainees earlier runs created: start from fresh serials.
    const runOffset = reuse ? Date.now() % 1_000_000_000 : 0;
    const scenarios = buildScenarios(dataset, generator, {
      seed: o.seed + 3 + runOffset,
      firstSerial: 10_000_000 + o.trainees + runOffset * 10,
      now,
    });
    const selected = scenarios.filter((s) => o.only === null || o.only.includes(s.name));
    const settings: LoadSettings = { connections: o.connections, duration: o.duration };
    const results: ScenarioResult[] = [];
    for (const scenario of selected) {
      results.push(await measureScenario(scenario, api, ceiling, settings, o.warmup, o.rounds));
    }

    let streamLength: StreamLengthResult | null = null;
    if (streams)
      streamLength = await measureStreamLength(api.url, streams, { duration: o.duration, warmup: o.warmup, rounds: o.rounds }, log);

    let flood: FloodResult | null = null;
    let floodLimited: FloodResult | null = null;
    if (o.only === null || o.only.includes(FLOOD_SCENARIO)) {
      const load = { duration: o.duration, warmup: o.warmup, connections: o.connections };
      flood = await measureFlood(api.url, dataset, { ...load, tokenLimitPerMinute: null }, log);
      // The same on a second API process with the per-token limit on; it only reads (PROJECTOR=external).
      log(`bench: ${FLOOD_SCENARIO}: a second API with RATE_LIMIT_TOKEN_PER_MINUTE=${FLOOD_TOKEN_LIMIT_PER_MINUTE}`);
      const limited = await ApiProcess.start({
        repoRoot: REPO_ROOT,
        dataDir,
        env: { ...env, PROJECTOR: 'external', RATE_LIMIT_TOKEN_PER_MINUTE: String(FLOOD_TOKEN_LIMIT_PER_MINUTE) },
        cpuProfDir: null,
        logFile: join(dataDir, 'api-flood-limited.log'),
      });
      try {
        floodLimited = await measureFlood(limited.url, dataset, { ...load, tokenLimitPerMinute: FLOOD_TOKEN_LIMIT_PER_MINUTE }, log);
      } finally {
        await limited.stop();
      }
    }

    let metricsOverhead: MetricsOverheadResult | null = null;
    if (o.only === null || o.only.includes(METRICS_SCENARIO)) {
      const scenario = scenarios.find((s) => s.name === 'get')!;
      const load = { repoRoot: REPO_ROOT, dataDir, env, scenario, settings, warmup: o.warmup, rounds: Math.max(4, o.rounds) };
      metricsOverhead = await measureMetricsOverhead(load, log);
    }

    let soak: SoakResult | null = null;
    if (o.soak > 0) {
      const sync = scenarios.find((s) => s.name === 'sync')!;
      soak = await runSoak(sync, api, o.soak, o.connections);
    }

    clearInterval(sampler);
    const endRss = api.sample()?.rss ?? null;
    const peak = api.peakRss();
    await api.stop();
    api = null;
    await ceiling.stop();
    ceiling = null;

    let profile: ProfileSummary | null = null;
    if (profileDir) {
      const newest = readdirSync(profileDir)
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => join(profileDir, f))
        .filter((f) => statSync(f).mtimeMs >= profileStart)
        .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
      if (newest) {
        profile = summariseProfile(newest, 30);
        log(`\n${formatProfile(profile)}\n`);
      } else {
        log('bench: no CPU profile was written');
      }
    }

    const cpus = os.cpus();
    const partial = {
      scenarios: results,
      rebuild,
      history,
      streamLength,
      flood,
      floodLimited,
      metricsOverhead,
      soak,
      apiStartSeconds: apiStartMs / 1000,
    };
    return {
      date: isoDate(startedAt.getTime()),
      label: o.label,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
      code: codeVersion(),
      machine: {
        nproc: os.availableParallelism(),
        cpuModel: cpus[0]?.model ?? 'unknown',
        memTotalGiB: os.totalmem() / 2 ** 30,
        node: process.version,
        platform: os.platform(),
        release: os.release(),
      },
      settings: {
        trainees: o.trainees,
        providers: o.providers,
        durationSeconds: o.duration,
        warmupSeconds: o.warmup,
        rounds: o.rounds,
        connections: o.connections,
        seed: o.seed,
        soakMinutes: o.soak,
        cpuProfile: o.cpuProf,
        backends,
      },
      dataset: {
        trainees: dataset.traineeCount,
        providers: dataset.providers.length,
        events: dataset.eventCount,
        appends: dataset.appends,
        loadSeconds: dataset.loadSeconds,
        traineesByCycle: dataset.traineesByCycle,
        traineesByState: dataset.traineesByState,
        eventsByType: dataset.eventsByType,
        regenerated: dataset.regenerated,
        refusedActions: dataset.refusedActions,
      },
      apiStartSeconds: apiStartMs / 1000,
      rebuild,
      history,
      scenarios: results,
      streamLength,
      flood,
      floodLimited,
      metricsOverhead,
      rss: { afterStartMiB: afterStart, peakMiB: peak, endMiB: endRss },
      soak,
      targets: checkTargets(partial),
      profile,
    };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await cleanup();
    if (!o.keepData) rmSync(dataDir, { recursive: true, force: true });
    else log(`bench: data kept in ${dataDir}`);
  }
}

/**
 * Measures one scenario: probes the service's answers, gives the ceiling the same bytes, warms both
 * up, then runs the same load alternately against the service and the ceiling, `rounds` times
 * `duration / rounds` seconds each, so that both see the same background load of a shared machine.
 */
async function measureScenario(
  scenario: Scenario,
  api: ApiProcess,
  ceiling: CeilingProcess,
  settings: LoadSettings,
  warmup: number,
  rounds: number,
): Promise<ScenarioResult> {
  log(`bench: scenario ${scenario.name}: ${scenario.title}`);
  const answers = await probe(api.url, scenario);
  await ceiling.setBodies(answers);
  if (warmup > 0) {
    await runLoad(api.url, scenario, { ...settings, duration: warmup });
    await runLoad(ceiling.url, scenario, { ...settings, duration: warmup });
  }
  const slice = { ...settings, duration: settings.duration / rounds };
  const services: LoadResult[] = [];
  const tops: LoadResult[] = [];
  for (let r = 0; r < rounds; r++) {
    services.push(await runLoad(api.url, scenario, slice));
    tops.push(await runLoad(ceiling.url, scenario, slice));
  }
  const service = combineLoads(services);
  const top = combineLoads(tops);
  const ratio = service.rps / top.rps;
  log(
    `bench:   service ${service.rps.toFixed(0)} req/s p50 ${service.p50} p99 ${service.p99} ms` +
      `${service.non2xx + service.errors > 0 ? ` (${service.non2xx} non-2xx ${JSON.stringify(service.statusCodes)}, ${service.errors} errors)` : ''}; ` +
      `ceiling ${top.rps.toFixed(0)} req/s p99 ${top.p99} ms; ratio ${ratio.toFixed(3)}` +
      `${rounds > 1 ? ` (rounds ${services.map((s, i) => (s.rps / tops[i].rps).toFixed(3)).join(', ')})` : ''}`,
  );
  const responseBytes: Record<string, number> = {};
  for (const [method, a] of Object.entries(answers)) responseBytes[method] = Math.round(a.meanBytes);
  const roundRatios = services.map((s, i) => s.rps / tops[i].rps);
  return {
    name: scenario.name,
    title: scenario.title,
    responseBytes,
    service,
    ceiling: top,
    ratio,
    roundRatios,
    ratioTarget: scenario.ratioTarget,
    p99TargetMs: scenario.p99TargetMs,
  };
}

/**
 * The RSS-growth run: the sync mix for `minutes` minutes, RSS and anonymous RSS sampled every 5 s.
 * Growth compares the mean of the last 30 s with the value after the first minute (a tenth of
 * shorter runs), so the warm-up of caches and JIT does not count as growth. The target is judged on
 * the anonymous part: RSS also counts the pages of the memory-mapped read model the run touched
 * (file pages, shared with the OS cache, bounded by the file), which grow with the data read.
 */
async function runSoak(scenario: Scenario, api: ApiProcess, minutes: number, connections: number): Promise<SoakResult> {
  log(`bench: soak: ${minutes} min of ${scenario.name}`);
  const samples: { t: number; rss: number; anon: number }[] = [];
  const started = Date.now();
  const timer = setInterval(() => {
    const rss = api.sample();
    if (rss !== null) samples.push({ t: (Date.now() - started) / 1000, ...rss });
  }, 5000);
  let service: LoadResult;
  try {
    service = await runLoad(api.url, scenario, { connections, duration: minutes * 60 });
  } finally {
    clearInterval(timer);
  }
  const total = minutes * 60;
  const growth = (of: 'rss' | 'anon') => {
    const baseline = samples.find((s) => s.t >= Math.min(60, total / 10))?.[of] ?? samples[0]?.[of] ?? NaN;
    const last = samples.filter((s) => s.t >= total - 30).map((s) => s[of]);
    const end = last.length ? last.reduce((a, b) => a + b, 0) / last.length : (samples[samples.length - 1]?.[of] ?? NaN);
    return { baseline, end, pct: (100 * (end - baseline)) / baseline };
  };
  const rss = growth('rss');
  const anon = growth('anon');
  const peak = Math.max(...samples.map((s) => s.rss));
  log(
    `bench:   RSS ${rss.baseline.toFixed(0)} → ${rss.end.toFixed(0)} MiB; anonymous ${anon.baseline.toFixed(0)} → ${anon.end.toFixed(0)} MiB; ` +
      `${service.rps.toFixed(0)} req/s`,
  );
  return {
    minutes,
    baselineMiB: rss.baseline,
    endMiB: rss.end,
    peakMiB: peak,
    growthPct: rss.pct,
    anonBaselineMiB: anon.baseline,
    anonEndMiB: anon.end,
    anonGrowthPct: anon.pct,
    service,
    samples,
  };
}

/** The commit measured, and how many files under apps/ and libs/ differ from it (uncommitted work). */
function codeVersion(): { commit: string; uncommittedFiles: number } {
  try {
    const git = (...args: string[]): string =>
      execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = git('status', '--porcelain', '--', 'apps', 'libs');
    return { commit: git('rev-parse', '--short', 'HEAD'), uncommittedFiles: dirty === '' ? 0 : dirty.split('\n').length };
  } catch {
    return { commit: 'unknown', uncommittedFiles: 0 };
  }
}

/** Entry point: run, print, save. */
async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const results = await runBench(o);
  const json = JSON.stringify(results, null, 2);
  if (o.save) {
    const dir = join(BENCH_DIR, 'results');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${results.date}${o.label ? `-${o.label}` : ''}.json`);
    writeFileSync(file, `${json}\n`);
    log(`bench: results written to ${file}`);
  }
  process.stdout.write(o.jsonOnly ? `${json}\n` : `\n${formatTable(results)}\n`);
  if (o.compare) {
    const before = JSON.parse(readFileSync(o.compare, 'utf8')) as BenchResults;
    process.stdout.write(`\nCompared with ${o.compare}:\n${formatComparison(before, results)}\n`);
  }
}

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
