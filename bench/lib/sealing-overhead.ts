import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { combineLoads, runLoad, type LoadResult, type LoadSettings } from './load';
import { ApiProcess } from './processes';
import type { Scenario } from './scenarios';

/** The name of this measurement in `--only`. */
export const SEALING_SCENARIO = 'sealing';

/**
 * Sealing personal data may cost at most 5 % of a create's and a PATCH's CPU (issue 27): the API's
 * CPU per request sealed ÷ in the clear ≤ this. CPU per request, not req/s: req/s swings with
 * the shared machine's load from one slice to the next, CPU per request far less.
 */
export const SEALING_COST_TARGET = 1.05;

/** One write scenario with personal data sealed and in the clear, in alternating rounds. */
export interface SealingScenarioResult {
  scenario: string;
  on: LoadResult;
  off: LoadResult;
  /** Requests per second sealed ÷ in the clear, over all rounds, and per round. */
  ratio: number;
  roundRatios: number[];
  /** The API process's CPU per request (all threads), in µs, sealed and in the clear, over all rounds. */
  cpuUs: { on: number; off: number };
  /** CPU per request sealed ÷ in the clear: the cost of sealing, held to {@link SEALING_COST_TARGET}. */
  cost: number;
}

/** What sealing personal data costs the writes (docs/DESIGN.md "Personal data"). */
export interface SealingOverheadResult {
  scenarios: SealingScenarioResult[];
  costTarget: number;
}

/**
 * Measures what sealing costs the writes in a steady state: with the bench's own API stopped,
 * copies the data dir twice, starts the API on one copy with `SEAL_PERSONAL_DATA` true and on the
 * other with false (the same build, each its own files, both running throughout so their caches
 * stay warm, as a serving process's do), warms each up with each scenario for `warmup` seconds, then
 * runs each of `scenarios` on each in turn for its share of `settings.duration`, `rounds` times
 * (each first in every other round). The copies are removed at the end.
 */
export async function measureSealingOverhead(
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
): Promise<SealingOverheadResult> {
  log(
    `bench: ${SEALING_SCENARIO}: ${o.scenarios.map((s) => s.name).join(', ')} on two APIs, SEAL_PERSONAL_DATA true and false, ${o.rounds} rounds`,
  );
  // Each on a fresh copy: neither starts with its files more in the page cache, or laid out otherwise.
  const dirs = { on: `${o.dataDir}-sealed`, off: `${o.dataDir}-clear` };
  for (const dir of Object.values(dirs)) cpSync(o.dataDir, dir, { recursive: true });
  const start = (sealed: boolean) =>
    ApiProcess.start({
      repoRoot: o.repoRoot,
      dataDir: dirs[sealed ? 'on' : 'off'],
      env: { ...o.env, SEAL_PERSONAL_DATA: String(sealed) },
      cpuProfDir: null,
      logFile: join(o.dataDir, `api-sealing-${sealed ? 'on' : 'off'}.log`),
    });
  const slice = { ...o.settings, duration: o.settings.duration / o.rounds };
  const runs = new Map<string, { on: LoadResult[]; off: LoadResult[]; cpuMs: { on: number; off: number } }>(
    o.scenarios.map((s) => [s.name, { on: [], off: [], cpuMs: { on: 0, off: 0 } }]),
  );
  const apis = { on: await start(true), off: await start(false) };
  try {
    for (const side of ['on', 'off'] as const)
      for (const scenario of o.scenarios) if (o.warmup > 0) await runLoad(apis[side].url, scenario, { ...o.settings, duration: o.warmup });
    const measure = async (side: 'on' | 'off', scenario: Scenario): Promise<void> => {
      const run = runs.get(scenario.name)!;
      const before = apis[side].cpu();
      run[side].push(await runLoad(apis[side].url, scenario, slice));
      const after = apis[side].cpu();
      if (before && after) run.cpuMs[side] += after.total - before.total;
    };
    for (let r = 0; r < o.rounds; r++)
      for (const scenario of o.scenarios)
        for (const side of r % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) await measure(side, scenario);
  } finally {
    await apis.on.stop();
    await apis.off.stop();
    for (const dir of Object.values(dirs)) rmSync(dir, { recursive: true, force: true });
  }
  const result: SealingOverheadResult = {
    scenarios: o.scenarios.map((s) => {
      const { on, off, cpuMs } = runs.get(s.name)!;
      const [onLoad, offLoad] = [combineLoads(on), combineLoads(off)];
      const cpuUs = { on: (cpuMs.on * 1000) / onLoad.requests, off: (cpuMs.off * 1000) / offLoad.requests };
      return {
        scenario: s.name,
        on: onLoad,
        off: offLoad,
        ratio: onLoad.rps / offLoad.rps,
        roundRatios: on.map((x, i) => x.rps / off[i].rps),
        cpuUs,
        cost: cpuUs.on / cpuUs.off,
      };
    }),
    costTarget: SEALING_COST_TARGET,
  };
  log(`bench:   ${formatSealingOverhead(result)}`);
  return result;
}

/** One line: per scenario, sealed and clear req/s and the ratio, with the target. */
export function formatSealingOverhead(m: SealingOverheadResult): string {
  const parts = m.scenarios.map(
    (s) =>
      `${s.scenario} API CPU ${s.cpuUs.on.toFixed(0)} µs per request sealed, ${s.cpuUs.off.toFixed(0)} in the clear, ` +
      `cost ${s.cost.toFixed(3)}×; ${s.on.rps.toFixed(0)} and ${s.off.rps.toFixed(0)} req/s ` +
      `(on ÷ off ${s.ratio.toFixed(3)}, rounds ${s.roundRatios.map((r) => r.toFixed(3)).join(', ')}), ` +
      `p99 ${s.on.p99} and ${s.off.p99} ms, non-2xx ${s.on.non2xx} and ${s.off.non2xx}`,
  );
  return `sealing personal data: ${parts.join('; ')}; target cost ≤ ${m.costTarget}×`;
}
