import { join } from 'node:path';
import { combineLoads, runLoad, type LoadResult, type LoadSettings } from './load';
import { ApiProcess } from './processes';
import type { Scenario } from './scenarios';

/** The name of this measurement in `--only`. */
export const SEALING_SCENARIO = 'sealing';

/** Sealing personal data may cost at most 5 % of create and PATCH throughput (issue 27): on ÷ off ≥ this. */
export const SEALING_RATIO_TARGET = 0.95;

/** One write scenario with personal data sealed and in the clear, in alternating rounds. */
export interface SealingScenarioResult {
  scenario: string;
  on: LoadResult;
  off: LoadResult;
  /** Requests per second sealed ÷ in the clear, over all rounds, and per round. */
  ratio: number;
  roundRatios: number[];
}

/** What sealing personal data costs the writes (docs/DESIGN.md "Personal data"). */
export interface SealingOverheadResult {
  scenarios: SealingScenarioResult[];
  ratioTarget: number;
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
  const runs = new Map<string, { on: LoadResult[]; off: LoadResult[] }>(o.scenarios.map((s) => [s.name, { on: [], off: [] }]));
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
      for (const scenario of o.scenarios) runs.get(scenario.name)![sealed ? 'on' : 'off'].push(await runLoad(api.url, scenario, slice));
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
      const { on, off } = runs.get(s.name)!;
      return {
        scenario: s.name,
        on: combineLoads(on),
        off: combineLoads(off),
        ratio: combineLoads(on).rps / combineLoads(off).rps,
        roundRatios: on.map((x, i) => x.rps / off[i].rps),
      };
    }),
    ratioTarget: SEALING_RATIO_TARGET,
  };
  log(`bench:   ${formatSealingOverhead(result)}`);
  return result;
}

/** One line: per scenario, sealed and clear req/s and the ratio, with the target. */
export function formatSealingOverhead(m: SealingOverheadResult): string {
  const parts = m.scenarios.map(
    (s) =>
      `${s.scenario} ${s.on.rps.toFixed(0)} req/s sealed, ${s.off.rps.toFixed(0)} in the clear, ` +
      `on ÷ off ${s.ratio.toFixed(3)} (rounds ${s.roundRatios.map((r) => r.toFixed(3)).join(', ')}), ` +
      `p99 ${s.on.p99} vs ${s.off.p99} ms, non-2xx ${s.on.non2xx} and ${s.off.non2xx}`,
  );
  return `sealing personal data: ${parts.join('; ')}; target ≥ ${m.ratioTarget}`;
}
