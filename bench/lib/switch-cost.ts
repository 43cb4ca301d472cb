import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { combineLoads, runLoad, type LoadResult, type LoadSettings } from './load';
import { ApiProcess } from './processes';
import type { Scenario } from './scenarios';

/**
 * A feature the API can be started with and without (a variable of the bench's comparison only,
 * which production refuses), and what it may cost the writes: the API's CPU per request with it ÷
 * without it ≤ `target`, both APIs driven as fast as each answers at the same time. A `guard` is
 * a bound whose cost is accepted below it: it catches a regression, it is not a figure to chase.
 */
export interface CostSwitch {
  /** The name of the measurement in `--only`. */
  name: string;
  /** What the feature is, for the report: "sealing personal data". */
  title: string;
  /** The environment variable that turns it off with `false`. */
  variable: string;
  /** The most CPU per request it may cost, as a ratio on ÷ off. */
  target: number;
  /** Whether `target` is a target or a guard (see above). */
  bound: 'target' | 'guard';
}

/**
 * Sealing personal data costs about 1.08× of a create's CPU and 1.12× of a PATCH's, which is
 * accepted; the line guards it at 1.15× on both (docs/DESIGN.md ruling 17).
 */
export const SEALING_SWITCH: CostSwitch = {
  name: 'sealing',
  title: 'sealing personal data',
  variable: 'SEAL_PERSONAL_DATA',
  target: 1.15,
  bound: 'guard',
};

/** Chaining each stream's events by their hashes may cost at most 3 % (docs/DESIGN.md "Verifiable history"). */
export const CHAIN_SWITCH: CostSwitch = { name: 'chain', title: 'the hash chain', variable: 'HASH_CHAIN', target: 1.03, bound: 'target' };

/** The names of the switch-cost measurements in `--only`. */
export const SEALING_SCENARIO = SEALING_SWITCH.name;
export const CHAIN_SCENARIO = CHAIN_SWITCH.name;

/*
 * Why the cost is CPU per request with both APIs driven as fast as each answers at the same time:
 * on two shared cores that also run the load generator, one saturated API's CPU per request and
 * req/s swing with the scheduler and the machine's other tenants from one slice to the next (by
 * ±10 % between rounds of the same build), so the two are driven side by side, under the same
 * conditions. And not at a fixed rate below what each serves: a process that waits between
 * requests pays, on this machine, a fixed CPU cost each time it wakes (about 0.5 ms, the same for
 * any work, as a script of pure computation shows), so at a fifth of the ceiling a request's CPU is
 * two to four times its own work and the feature's share of it is diluted toward 1. Driven
 * as fast as each answers, neither waits: each always has requests queued, the two share the cores
 * the way any two busy processes do, and the CPU each spends on a request is its own work.
 */

/** One write scenario with the feature on and off, in alternating rounds. */
export interface SwitchScenarioResult {
  scenario: string;
  /**
   * In results of older harness versions: the fixed rate each API was driven at, side by side, for
   * the CPU measurement, in req/s. Absent: both as fast as each answers, side by side.
   */
  rate?: number;
  /** The API process's CPU per request (all threads), in µs, on and off, over all rounds. */
  cpuUs: { on: number; off: number };
  /** The part of it spent on the API's main thread (HTTP, deciding, sealing), in µs; the rest is its worker threads'. */
  mainThreadCpuUs?: { on: number; off: number };
  /** CPU per request on ÷ off: the feature's cost, held to its switch's `target`. */
  cost: number;
  /** The same, round by round. */
  roundCosts: number[];
  /** The same, pair of APIs by pair (see {@link SWITCH_ROUNDS_PER_PAIR}; absent in results of older harness versions). */
  pairCosts?: number[];
  /** Answers other than 2xx, and errors, on and off: a cost is read only where both are 0. */
  failures?: { on: number; off: number };
  /** The same at `rate`, in results of older harness versions. */
  fixedFailures?: { on: number; off: number };
  /** The loads of the measurement (the throughput the feature costs, not held to a target): on and off. */
  on: LoadResult;
  off: LoadResult;
  /** Requests per second, on ÷ off, over all rounds, and per round. */
  ratio: number;
  roundRatios: number[];
  /** In results of older harness versions: the CPU per request of each API alone, as fast as it answered, in µs. */
  saturatedCpuUs?: { on: number; off: number };
}

/** What a feature costs the writes. `feature` names it (absent in results from before there was more than sealing). */
export interface SwitchCostResult {
  feature?: string;
  scenarios: SwitchScenarioResult[];
  costTarget: number;
  /** Whether `costTarget` is a target or a guard ({@link CostSwitch}); absent in older results: a target. */
  costBound?: 'target' | 'guard';
}

type Side = 'on' | 'off';

/** One slice's load and the API's CPU during it (ms). */
interface Slice {
  load: LoadResult;
  cpuMs: number;
  /** Of `cpuMs`, the API's main thread's. */
  mainCpuMs: number;
}

/**
 * Rounds each pair of APIs runs before a fresh pair takes over (see {@link measureSwitchCost}):
 * an API process keeps the code V8 compiled for it for its whole life, and two processes of one
 * build differ by more than the rounds of one pair do (by up to 9 points of the ratio).
 */
export const SWITCH_ROUNDS_PER_PAIR = 2;

/**
 * Measures what the feature of `feature` costs the writes in a steady state: with the bench's own
 * API stopped, runs `rounds` rounds on fresh pairs of APIs, {@link SWITCH_ROUNDS_PER_PAIR} rounds a pair (the
 * rounds spread over `floor(rounds / 2)` pairs, at least one). For each pair it copies the data dir
 * twice and starts the API on one copy with the switch's variable true and on the other with false
 * (the same build, each its own files, both running throughout so their caches stay warm, as a
 * serving process's do), and warms both up with each scenario for `warmup` seconds (at least 2).
 * Each round runs each scenario on both APIs at once, each as fast as it answers, for its share of
 * `settings.duration`, and reads each API's CPU around it. Neither side is always first: the pairs
 * start their APIs, and the rounds begin their two loads, in alternating order. The pair is stopped and its copies
 * removed before the next pair starts. The cost is over all pairs' slices; `pairCosts` gives each
 * pair's.
 */
export async function measureSwitchCost(
  feature: CostSwitch,
  o: {
    repoRoot: string;
    dataDir: string;
    env: Record<string, string>;
    scenarios: Scenario[];
    settings: LoadSettings;
    warmup: number;
    rounds: number;
  },
  log: (message: string) => void,
): Promise<SwitchCostResult> {
  const pairs = Math.max(1, Math.floor(o.rounds / SWITCH_ROUNDS_PER_PAIR));
  log(
    `bench: ${feature.name}: ${o.scenarios.map((s) => s.name).join(', ')} on ${pairs} pair(s) of APIs, ` +
      `${feature.variable} true and false, ${o.rounds} rounds, side by side`,
  );
  const runs: Runs = new Map(o.scenarios.map((s) => [s.name, sides<Slice[]>(() => [])]));
  const pairOf: number[] = [];
  for (let p = 0; p < pairs; p++) {
    const rounds = Math.floor(((p + 1) * o.rounds) / pairs) - Math.floor((p * o.rounds) / pairs);
    await runPair(feature, o, runs, { index: p, rounds });
    for (let r = 0; r < rounds; r++) pairOf.push(p);
  }
  const result: SwitchCostResult = {
    feature: feature.title,
    scenarios: o.scenarios.map((s) => {
      const slices = runs.get(s.name)!;
      const cpuUs = sides((side) => cpuPerRequest(slices[side]));
      const mainThreadCpuUs = sides((side) => cpuPerRequest(slices[side].map((x) => ({ ...x, cpuMs: x.mainCpuMs }))));
      const [onLoad, offLoad] = [combineLoads(slices.on.map((x) => x.load)), combineLoads(slices.off.map((x) => x.load))];
      const ofPair = (p: number, side: Side) => slices[side].filter((_, i) => pairOf[i] === p);
      return {
        scenario: s.name,
        cpuUs,
        mainThreadCpuUs,
        cost: cpuUs.on / cpuUs.off,
        roundCosts: slices.on.map((x, i) => cpuPerRequest([x]) / cpuPerRequest([slices.off[i]])),
        pairCosts: Array.from({ length: pairs }, (_, p) => cpuPerRequest(ofPair(p, 'on')) / cpuPerRequest(ofPair(p, 'off'))),
        failures: sides((side) => slices[side].reduce((a, x) => a + x.load.non2xx + x.load.errors + x.load.timeouts, 0)),
        on: onLoad,
        off: offLoad,
        ratio: onLoad.rps / offLoad.rps,
        roundRatios: slices.on.map((x, i) => x.load.rps / slices.off[i].load.rps),
      };
    }),
    costTarget: feature.target,
    costBound: feature.bound,
  };
  log(`bench:   ${formatSwitchCost(result)}`);
  return result;
}

/** Per scenario, the slices of each side, in round order. */
type Runs = Map<string, Record<Side, Slice[]>>;

/**
 * One pair of APIs (see {@link measureSwitchCost}): fresh copies of the data dir, both APIs
 * started and warmed up, `rounds` rounds added to `runs`, then both stopped and the copies removed.
 */
async function runPair(
  feature: CostSwitch,
  o: Parameters<typeof measureSwitchCost>[1],
  runs: Runs,
  { index, rounds }: { index: number; rounds: number },
): Promise<void> {
  // Each on a fresh copy: neither starts with its files more in the page cache, or laid out otherwise.
  const dirs = { on: `${o.dataDir}-${feature.name}-on`, off: `${o.dataDir}-${feature.name}-off` };
  for (const dir of Object.values(dirs)) cpSync(o.dataDir, dir, { recursive: true });
  const start = (on: boolean) =>
    ApiProcess.start({
      repoRoot: o.repoRoot,
      dataDir: dirs[on ? 'on' : 'off'],
      env: { ...o.env, [feature.variable]: String(on) },
      cpuProfDir: null,
      logFile: join(o.dataDir, `api-${feature.name}-${on ? 'on' : 'off'}.log`),
    });
  const slice = { ...o.settings, duration: o.settings.duration / o.rounds, rate: undefined };
  // Neither side always goes first: the APIs start, and each round's loads begin, in turn.
  const first = (n: number): [Side, Side] => (n % 2 === 0 ? ['on', 'off'] : ['off', 'on']);
  const apis = {} as Record<Side, ApiProcess>;
  for (const side of first(index)) apis[side] = await start(side === 'on');
  const measure = async (side: Side, scenario: Scenario, settings: LoadSettings): Promise<Slice> => {
    const before = apis[side].cpu();
    const load = await runLoad(apis[side].url, scenario, settings);
    const after = apis[side].cpu();
    return { load, cpuMs: before && after ? after.total - before.total : 0, mainCpuMs: before && after ? after.main - before.main : 0 };
  };
  const sideBySide = async (scenario: Scenario, settings: LoadSettings, n: number): Promise<Record<Side, Slice>> => {
    const [a, b] = first(n);
    const [x, y] = await Promise.all([measure(a, scenario, settings), measure(b, scenario, settings)]);
    return { [a]: x, [b]: y } as Record<Side, Slice>;
  };
  try {
    for (const scenario of o.scenarios) await sideBySide(scenario, { ...slice, duration: Math.max(2, o.warmup) }, index);
    for (let r = 0; r < rounds; r++)
      for (const scenario of o.scenarios) {
        const { on, off } = await sideBySide(scenario, slice, index + r);
        runs.get(scenario.name)!.on.push(on);
        runs.get(scenario.name)!.off.push(off);
      }
  } finally {
    await apis.on.stop();
    await apis.off.stop();
    for (const dir of Object.values(dirs)) rmSync(dir, { recursive: true, force: true });
  }
}

function sides<T>(make: (side: Side) => T): Record<Side, T> {
  return { on: make('on'), off: make('off') };
}

/** The API's CPU per request over `slices`, in µs. */
function cpuPerRequest(slices: Slice[]): number {
  const requests = slices.reduce((a, x) => a + x.load.requests, 0);
  return requests === 0 ? 0 : (slices.reduce((a, x) => a + x.cpuMs, 0) * 1000) / requests;
}

/** One line: per scenario, the CPU cost with the target, then the req/s of the same slices. */
export function formatSwitchCost(m: SwitchCostResult): string {
  const parts = m.scenarios.map((s) => {
    // Results of older harness versions: a fixed rate, failures at it, and each API alone as fast as it answered.
    const failures = s.failures ?? s.fixedFailures ?? { on: 0, off: 0 };
    return (
      `${s.scenario}${s.rate ? ` at ${s.rate} req/s` : ', side by side as fast as each answers'}: ` +
      `API CPU ${s.cpuUs.on.toFixed(0)} µs per request on, ${s.cpuUs.off.toFixed(0)} off ` +
      (s.mainThreadCpuUs ? `(main thread ${s.mainThreadCpuUs.on.toFixed(0)} and ${s.mainThreadCpuUs.off.toFixed(0)}), ` : ', ') +
      `cost ${s.cost.toFixed(3)}× (` +
      (s.pairCosts ? `pairs of APIs ${s.pairCosts.map((r) => r.toFixed(3)).join(', ')}; ` : '') +
      `rounds ${s.roundCosts.map((r) => r.toFixed(3)).join(', ')}; ` +
      `failed ${failures.on} and ${failures.off}); ` +
      `${s.rate ? 'as fast as each answers ' : ''}${s.on.rps.toFixed(0)} and ${s.off.rps.toFixed(0)} req/s ` +
      `(on ÷ off ${s.ratio.toFixed(3)}, rounds ${s.roundRatios.map((r) => r.toFixed(3)).join(', ')}` +
      (s.saturatedCpuUs ? `; CPU ${s.saturatedCpuUs.on.toFixed(0)} and ${s.saturatedCpuUs.off.toFixed(0)} µs` : '') +
      `), p99 ${s.on.p99} and ${s.off.p99} ms, non-2xx ${s.on.non2xx} and ${s.off.non2xx}`
    );
  });
  return `${m.feature ?? SEALING_SWITCH.title}: ${parts.join('; ')}; ${m.costBound ?? 'target'} cost ≤ ${m.costTarget}×`;
}
