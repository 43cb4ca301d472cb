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
import { TraineeGenerator, isoDate } from './lib/generator';
import { ApiProcess, CeilingProcess } from './lib/processes';
import { FLOOD_SCENARIO, FLOOD_TOKEN_LIMIT_PER_MINUTE, measureFlood, type FloodResult } from './lib/flood';
import { measureMetricsOverhead, METRICS_SCENARIO, type MetricsOverheadResult } from './lib/metrics-overhead';
import { CHAIN_SWITCH, measureSwitchCost, SEALING_SWITCH, type SwitchCostResult } from './lib/switch-cost';
import { buildScenarios } from './lib/scenarios';
import { cursorCodecOf, loadServiceKey } from '@app/runtime/process';
import { formatComparison } from './lib/compare';
import type { LoadSettings } from './lib/load';
import { checkTargets, formatTable, type BenchResults, type ScenarioResult, type SoakResult } from './lib/report';
import { formatProfile, summariseProfile, type ProfileSummary } from './lib/profile';
import { measureStreamLength, type StreamLengthResult } from './lib/stream-length';
import { parseArgs, type BenchOptions } from './lib/options';
import { prepareData } from './lib/prepare-data';
import { measureScenario, runSoak } from './lib/scenario-runs';
import { measureSwap, SWAP_SCENARIO, type SwapResult } from './lib/swap';
import { BACKUP_SCENARIO, measureBackup, type BackupResult } from './lib/backup';
import { measureUpload, UPLOAD_SCENARIO, type UploadResult } from './lib/upload';
import { measureUploadBurst, UPLOAD_BURST_SCENARIO, type UploadBurstResult } from './lib/upload-burst';
import { measureRotation, ROTATE_SCENARIO, type RotationResult } from './lib/rotation';
import { formatStorage, measureStorage } from './lib/storage';

const BENCH_DIR = __dirname;
const REPO_ROOT = resolve(BENCH_DIR, '..');
/** The data set description kept in a `--data-dir`, so a later run can reuse the loaded stores. */
const MANIFEST = 'bench-dataset.json';

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
    const { dataset, rebuild, history, streams, census } = await prepareData(o, {
      dataDir,
      manifest,
      reuse,
      eventStoreUrl,
      mongodbUrl,
      repoRoot: REPO_ROOT,
      now,
      log,
    });

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
      // The feed's cursors as the API makes them: its sandbox service key in the data dir (made here when new).
      cursors: cursorCodecOf(loadServiceKey({ dataDir, dataKeyFile: null }).key),
    });
    const selected = scenarios.filter((s) => o.only === null || o.only.includes(s.name));
    const settings: LoadSettings = { connections: o.connections, duration: o.duration };
    const results: ScenarioResult[] = [];
    for (const scenario of selected) {
      results.push(await measureScenario(scenario, api, ceiling, settings, o.warmup, o.rounds, log));
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

    let upload: UploadResult | null = null;
    if (o.only === null || o.only.includes(UPLOAD_SCENARIO)) {
      const uploadOptions = { seed: o.seed + 5 + runOffset, firstSerial: 20_000_000 + o.trainees + runOffset * 10 };
      upload = await measureUpload(api.url, dataset, generator, uploadOptions, { connections: o.connections, duration: o.duration }, log);
    }

    // On an API process of its own (its metrics listener gives its event loop's longest block).
    let uploadBurst: UploadBurstResult | null = null;
    if (o.only === null || o.only.includes(UPLOAD_BURST_SCENARIO)) {
      const burstOptions = { seed: o.seed + 6 + runOffset, firstSerial: 30_000_000 + o.trainees + runOffset * 100_000 };
      const load = { connections: o.connections, duration: o.duration };
      uploadBurst = await measureUploadBurst(REPO_ROOT, dataDir, env, dataset, generator, burstOptions, load, log);
    }

    // The embedded stores only: on EventStoreDB and MongoDB their own tools take the backup.
    let backup: BackupResult | null = null;
    if ((o.only === null || o.only.includes(BACKUP_SCENARIO)) && !eventStoreUrl && !mongodbUrl) {
      const [get, patch] = ['get', 'patch'].map((name) => scenarios.find((s) => s.name === name)!);
      backup = await measureBackup(api.url, { get, patch }, REPO_ROOT, dataDir, { connections: o.connections, duration: o.duration }, log);
    }

    // The embedded stores only here: the sandbox keyring in the data dir is the one the CLI rotates.
    let rotation: RotationResult | null = null;
    if ((o.only === null || o.only.includes(ROTATE_SCENARIO)) && !eventStoreUrl && !mongodbUrl) {
      const [get, patch] = ['get', 'patch'].map((name) => scenarios.find((s) => s.name === name)!);
      const load = { connections: o.connections, duration: o.duration };
      rotation = await measureRotation(api.url, { get, patch }, REPO_ROOT, dataDir, load, log);
    }

    // After the scenarios' writes, before the rebuild replaces the read store.
    const storage = measureStorage(dataDir);
    if (storage) log(formatStorage(storage));

    // Last among the API's scenarios: the rebuild replaces the read store the others read.
    let swap: SwapResult | null = null;
    if ((o.only === null || o.only.includes(SWAP_SCENARIO)) && !eventStoreUrl && !mongodbUrl) {
      swap = await measureSwap(
        api.url,
        scenarios.find((s) => s.name === 'patch')!,
        REPO_ROOT,
        dataDir,
        o.connections,
        log,
      );
    }

    let soak: SoakResult | null = null;
    if (o.soak > 0) {
      const sync = scenarios.find((s) => s.name === 'sync')!;
      soak = await runSoak(sync, api, o.soak, o.connections, log);
    }

    clearInterval(sampler);
    const endRss = api.sample()?.rss ?? null;
    const peak = api.peakRss();
    await api.stop();
    api = null;
    await ceiling.stop();
    ceiling = null;

    // With the bench's API stopped: the API again, with a feature and without, in turns (sealing, the hash chain).
    const writes = scenarios.filter((s) => s.name === 'create' || s.name === 'patch');
    const load = { repoRoot: REPO_ROOT, dataDir, env, scenarios: writes, settings, warmup: o.warmup, rounds: Math.max(2, o.rounds) };
    const switchCost = async (feature: typeof SEALING_SWITCH): Promise<SwitchCostResult | null> =>
      o.only === null || o.only.includes(feature.name) ? measureSwitchCost(feature, load, log) : null;
    const sealingOverhead = await switchCost(SEALING_SWITCH);
    const chainOverhead = await switchCost(CHAIN_SWITCH);

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
      census,
      streamLength,
      flood,
      floodLimited,
      metricsOverhead,
      sealingOverhead,
      chainOverhead,
      swap,
      backup,
      rotation,
      upload,
      uploadBurst,
      storage,
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
      census,
      scenarios: results,
      streamLength,
      flood,
      floodLimited,
      metricsOverhead,
      sealingOverhead,
      chainOverhead,
      swap,
      backup,
      rotation,
      upload,
      uploadBurst,
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
