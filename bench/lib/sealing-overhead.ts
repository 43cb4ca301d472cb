import { join } from 'node:path';
import { combineLoads, runLoad, type LoadResult, type LoadSettings } from './load';
import { ApiProcess } from './processes';
import type { Scenario } from './scenarios';

/** The name of this measurement in `--only`. */
export const SEALING_SCENARIO = 'sealing';

/**
 * Sealing personal data may cost at most 5 % of a create's and a PATCH's CPU (issue 27): the API's
 * CPU per request sealed ÷ in the clear ≤ this. CPU per request, not req/s: a process started
 * afresh each round makes throughput swing by half on this shared machine, CPU far less.
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
 * Measures what sealing costs the writes: with the bench's own API stopped, starts the API on the
 * data dir once with `SEAL_PERSONAL_DATA` true and once false per round (the same build; each first
 * in every other round, so neither gains from going first), warms it up with each scenario for
 * `warmup` seconds, then runs each of `scenarios` for its share of `settings.duration`, `rounds` times.
 * Both write to the same log, so the data grows alike for both.
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
    `bench: ${SEALING_SCENARIO}: ${o.scenarios.map((s) => s.name).join(', ')} with SEAL_PERSONAL_DATA true and false, ${o.rounds} rounds`,
  );
  const slice = { ...o.settings, duration: o.settings.duration / o.rounds };
  const runs = new Map<string, { on: LoadResult[]; off: LoadResult[]; cpuMs: { on: number; off: number } }>(
    o.scenarios.map((s) => [s.name, { on: [], off: [], cpuMs: { on: 0, off: 0 } }]),
  );
  const measure = async (sealed: boolean): Promise<void> => {
    const api = await ApiProcess.start({
      repoRoot: o.repoRoot,
      dataDir: o.dataDir,
      env: { ...o.env, SEAL_PERSONAL_DATA: String(sealed) },
      cpuProfDir: null,
      logFile: join(o.dataDir, `api-sealing-${sealed ? 'on' : 'off'}.log`),
    });
    try {
      for (const scenario of o.scenarios) if (o.warmup > 0) await runLoad(api.url, scenario, { ...o.settings, duration: o.warmup });
      for (const scenario of o.scenarios) {
        const run = runs.get(scenario.name)!;
        const before = api.cpu();
        run[sealed ? 'on' : 'off'].push(await runLoad(api.url, scenario, slice));
        const after = api.cpu();
        if (before && after) run.cpuMs[sealed ? 'on' : 'off'] += after.total - before.total;
      }
    } finally {
      await api.stop();
    }
  };
  for (let r = 0; r < o.rounds; r++) {
    const order = r % 2 === 0 ? [true, false] : [false, true];
    for (const sealed of order) await measure(sealed);
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
