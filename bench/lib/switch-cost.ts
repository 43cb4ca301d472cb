import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { combineLoads, runLoad, type LoadResult, type LoadSettings } from './load';
import { ApiProcess } from './processes';
import type { Scenario } from './scenarios';

/**
 * A feature the API can be started with and without (a variable of the bench's comparison only,
 * which production refuses), and what it may cost the writes: the API's CPU per request with it ÷
 * without it ≤ `target`, both APIs driven at the same fixed rate at the same time.
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
}

/** Sealing personal data may cost at most 5 % of a create's and a PATCH's CPU (issue 27). */
export const SEALING_SWITCH: CostSwitch = { name: 'sealing', title: 'sealing personal data', variable: 'SEAL_PERSONAL_DATA', target: 1.05 };

/** Chaining each stream's events by their hashes may cost at most 3 % (issue 28; docs/DESIGN.md "Verifiable history"). */
export const CHAIN_SWITCH: CostSwitch = { name: 'chain', title: 'the hash chain', variable: 'HASH_CHAIN', target: 1.03 };

/** The names of the switch-cost measurements in `--only`. */
export const SEALING_SCENARIO = SEALING_SWITCH.name;
export const CHAIN_SCENARIO = CHAIN_SWITCH.name;

/*
 * Why the cost is CPU per request at one fixed rate, both APIs driven at the same time, not req/s
 * as fast as each answers: on two shared cores that also run the load generator, a saturated API's
 * CPU per request and req/s swing with the scheduler and the machine's other tenants from one slice
 * to the next (by ±10 % between rounds of the same build, and as much between slices of a few
 * seconds taken one after the other). Driven side by side at a rate both sustain, each serves the
 * same requests per second under the same conditions, so the difference in the CPU each spends is
 * the work the feature adds.
 */

/**
 * The fixed rate of each API in the CPU measurement, as a share of the slower API's req/s in the
 * warm-up (as fast as it answers, alone): the two together then ask for 60 % of what one serves.
 */
export const SWITCH_RATE_SHARE = 0.3;

/** One write scenario with the feature on and off, in alternating rounds. */
export interface SwitchScenarioResult {
  scenario: string;
  /** The fixed rate each API was driven at, side by side, for the CPU measurement, in req/s. */
  rate: number;
  /** The API process's CPU per request (all threads) at `rate`, in µs, on and off, over all rounds. */
  cpuUs: { on: number; off: number };
  /** The part of it spent on the API's main thread (HTTP, deciding, sealing), in µs; the rest is its worker threads'. */
  mainThreadCpuUs?: { on: number; off: number };
  /** CPU per request on ÷ off at `rate`: the feature's cost, held to its switch's `target`. */
  cost: number;
  /** The same, round by round. */
  roundCosts: number[];
  /** The same, pair of APIs by pair (see {@link SWITCH_ROUNDS_PER_PAIR}; absent in results of older harness versions). */
  pairCosts?: number[];
  /** Answers other than 2xx, and errors, at `rate`, on and off: a cost is read only where both are 0. */
  fixedFailures: { on: number; off: number };
  /** As fast as each API answers (the throughput the feature costs, not held to a target): on and off. */
  on: LoadResult;
  off: LoadResult;
  /** Requests per second as fast as each answers, on ÷ off, over all rounds, and per round. */
  ratio: number;
  roundRatios: number[];
  /** The API process's CPU per request as fast as each answers, in µs. */
  saturatedCpuUs: { on: number; off: number };
}

/** What a feature costs the writes. `feature` names it (absent in results from before there was more than sealing). */
export interface SwitchCostResult {
  feature?: string;
  scenarios: SwitchScenarioResult[];
  costTarget: number;
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
 * build differ by more than the rounds of one pair do (bench/results/HISTORY.md "Issue 27").
 */
export const SWITCH_ROUNDS_PER_PAIR = 2;

/**
 * Measures what the feature of `feature` costs the writes in a steady state: with the bench's own
 * API stopped, runs `rounds` rounds on fresh pairs of APIs, {@link SWITCH_ROUNDS_PER_PAIR} rounds a pair (the
 * rounds spread over `floor(rounds / 2)` pairs, at least one). For each pair it copies the data dir
 * twice and starts the API on one copy with the switch's variable true and on the other with false
 * (the same build, each its own files, both running throughout so their caches stay warm, as a
 * serving process's do), and warms each up with each scenario for `warmup` seconds (at least 2) as
 * fast as it answers; the first pair's warm-up sets the scenario's fixed rate
 * ({@link SWITCH_RATE_SHARE} of the slower one's req/s), kept for every pair. Each round runs each
 * scenario on both APIs at once at that rate for its share of `settings.duration` (the CPU cost),
 * and on each in turn as fast as it answers (the req/s; each first in every other round). The pair
 * is stopped and its copies removed before the next pair starts. The cost is over all pairs' slices;
 * `pairCosts` gives each pair's.
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
      `${feature.variable} true and false, ${o.rounds} rounds`,
  );
  const runs: Runs = new Map(
    o.scenarios.map((s) => [s.name, { rate: 0, fixed: sides<Slice[]>(() => []), saturated: sides<Slice[]>(() => []) }]),
  );
  const pairOf: number[] = [];
  for (let p = 0, round = 0; p < pairs; p++) {
    const rounds = Math.floor(((p + 1) * o.rounds) / pairs) - Math.floor((p * o.rounds) / pairs);
    await runPair(feature, o, runs, { first: p === 0, firstRound: round, rounds });
    for (let r = 0; r < rounds; r++) pairOf.push(p);
    round += rounds;
  }
  const result: SwitchCostResult = {
    feature: feature.title,
    scenarios: o.scenarios.map((s) => {
      const { rate, fixed, saturated } = runs.get(s.name)!;
      const cpuUs = sides((side) => cpuPerRequest(fixed[side]));
      const mainThreadCpuUs = sides((side) => cpuPerRequest(fixed[side].map((x) => ({ ...x, cpuMs: x.mainCpuMs }))));
      const [onLoad, offLoad] = [combineLoads(saturated.on.map((x) => x.load)), combineLoads(saturated.off.map((x) => x.load))];
      const ofPair = (p: number, side: Side) => fixed[side].filter((_, i) => pairOf[i] === p);
      return {
        scenario: s.name,
        rate,
        cpuUs,
        mainThreadCpuUs,
        cost: cpuUs.on / cpuUs.off,
        roundCosts: fixed.on.map((x, i) => cpuPerRequest([x]) / cpuPerRequest([fixed.off[i]])),
        pairCosts: Array.from({ length: pairs }, (_, p) => cpuPerRequest(ofPair(p, 'on')) / cpuPerRequest(ofPair(p, 'off'))),
        fixedFailures: sides((side) => fixed[side].reduce((a, x) => a + x.load.non2xx + x.load.errors + x.load.timeouts, 0)),
        on: onLoad,
        off: offLoad,
        ratio: onLoad.rps / offLoad.rps,
        roundRatios: saturated.on.map((x, i) => x.load.rps / saturated.off[i].load.rps),
        saturatedCpuUs: sides((side) => cpuPerRequest(saturated[side])),
      };
    }),
    costTarget: feature.target,
  };
  log(`bench:   ${formatSwitchCost(result)}`);
  return result;
}

/** Per scenario: its fixed rate, and the slices at that rate and as fast as each answers, by side, in round order. */
type Runs = Map<string, { rate: number; fixed: Record<Side, Slice[]>; saturated: Record<Side, Slice[]> }>;

/**
 * One pair of APIs (see {@link measureSwitchCost}): fresh copies of the data dir, both APIs
 * started and warmed up (the `first` pair's warm-up sets the rates), `rounds` rounds numbered from
 * `firstRound` added to `runs`, then both stopped and the copies removed.
 */
async function runPair(
  feature: CostSwitch,
  o: Parameters<typeof measureSwitchCost>[1],
  runs: Runs,
  pair: { first: boolean; firstRound: number; rounds: number },
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
  const slice = { ...o.settings, duration: o.settings.duration / o.rounds };
  const apis = { on: await start(true), off: await start(false) };
  const measure = async (side: Side, scenario: Scenario, settings: LoadSettings): Promise<Slice> => {
    const before = apis[side].cpu();
    const load = await runLoad(apis[side].url, scenario, settings);
    const after = apis[side].cpu();
    return { load, cpuMs: before && after ? after.total - before.total : 0, mainCpuMs: before && after ? after.main - before.main : 0 };
  };
  try {
    for (const scenario of o.scenarios) {
      const warm = { ...o.settings, duration: Math.max(2, o.warmup) };
      const rps = { on: (await measure('on', scenario, warm)).load.rps, off: (await measure('off', scenario, warm)).load.rps };
      if (pair.first) runs.get(scenario.name)!.rate = Math.max(1, Math.round(SWITCH_RATE_SHARE * Math.min(rps.on, rps.off)));
    }
    for (let r = pair.firstRound; r < pair.firstRound + pair.rounds; r++)
      for (const scenario of o.scenarios) {
        const run = runs.get(scenario.name)!;
        const order: Side[] = r % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
        const [on, off] = await Promise.all([
          measure('on', scenario, { ...slice, rate: run.rate }),
          measure('off', scenario, { ...slice, rate: run.rate }),
        ]);
        run.fixed.on.push(on);
        run.fixed.off.push(off);
        for (const side of order) run.saturated[side].push(await measure(side, scenario, slice));
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

/** One line: per scenario, the CPU cost at the fixed rate with the target, then the req/s as fast as each answers. */
export function formatSwitchCost(m: SwitchCostResult): string {
  const parts = m.scenarios.map(
    (s) =>
      `${s.scenario} at ${s.rate} req/s: API CPU ${s.cpuUs.on.toFixed(0)} µs per request on, ${s.cpuUs.off.toFixed(0)} off ` +
      // Results of older harness versions have no main thread's share.
      (s.mainThreadCpuUs ? `(main thread ${s.mainThreadCpuUs.on.toFixed(0)} and ${s.mainThreadCpuUs.off.toFixed(0)}), ` : ', ') +
      `cost ${s.cost.toFixed(3)}× (` +
      (s.pairCosts ? `pairs of APIs ${s.pairCosts.map((r) => r.toFixed(3)).join(', ')}; ` : '') +
      `rounds ${s.roundCosts.map((r) => r.toFixed(3)).join(', ')}; ` +
      `failed ${s.fixedFailures.on} and ${s.fixedFailures.off}); ` +
      `as fast as each answers ${s.on.rps.toFixed(0)} and ${s.off.rps.toFixed(0)} req/s ` +
      `(on ÷ off ${s.ratio.toFixed(3)}, rounds ${s.roundRatios.map((r) => r.toFixed(3)).join(', ')}; ` +
      `CPU ${s.saturatedCpuUs.on.toFixed(0)} and ${s.saturatedCpuUs.off.toFixed(0)} µs), ` +
      `p99 ${s.on.p99} and ${s.off.p99} ms, non-2xx ${s.on.non2xx} and ${s.off.non2xx}`,
  );
  return `${m.feature ?? SEALING_SWITCH.title}: ${parts.join('; ')}; target cost ≤ ${m.costTarget}×`;
}
