import { join } from 'node:path';
import { combineLoads, runLoad, type LoadResult, type LoadSettings } from './load';
import { ApiProcess, freePort } from './processes';
import type { Scenario } from './scenarios';

/** The name of this measurement in `--only`. */
export const METRICS_SCENARIO = 'metrics';

/** Metrics may cost at most 5 % of GET throughput (docs/observability.md "What metrics cost"): on ÷ off ≥ this. */
export const METRICS_RATIO_TARGET = 0.95;

/** How often the "on" API is scraped while it is measured, in ms (Prometheus's default is 15 s; this is harsher). */
const SCRAPE_EVERY_MS = 5_000;

/** GET throughput of two API processes alike but for METRICS_PORT, measured in alternating rounds. */
export interface MetricsOverheadResult {
  scenario: string;
  on: LoadResult;
  off: LoadResult;
  /** Requests per second with metrics on ÷ off, over all rounds, and per round. */
  ratio: number;
  roundRatios: number[];
  ratioTarget: number;
  /** Scrapes of `/metrics` made during the "on" rounds, and the size of the last, in bytes. */
  scrapes: number;
  scrapeBytes: number;
}

/**
 * Measures what metrics cost (docs/observability.md "Metrics"): starts two more API processes on the
 * data dir, both `PROJECTOR=external` (they only read), one with METRICS_PORT set and scraped every
 * {@link SCRAPE_EVERY_MS}, and runs `scenario` against each in turn (each going first in every
 * other round), `rounds` times, after a warm-up of each; the main API idles meanwhile.
 */
export async function measureMetricsOverhead(
  o: {
    repoRoot: string;
    dataDir: string;
    env: Record<string, string>;
    scenario: Scenario;
    settings: LoadSettings;
    warmup: number;
    rounds: number;
  },
  log: (message: string) => void,
): Promise<MetricsOverheadResult> {
  const metricsPort = await freePort();
  const start = (name: string, env: Record<string, string>) =>
    ApiProcess.start({
      repoRoot: o.repoRoot,
      dataDir: o.dataDir,
      env: { ...o.env, PROJECTOR: 'external', ...env },
      cpuProfDir: null,
      logFile: join(o.dataDir, `api-metrics-${name}.log`),
    });
  log(`bench: ${METRICS_SCENARIO}: ${o.scenario.name} on two more APIs, METRICS_PORT=${metricsPort} on one, unset on the other`);
  const on = await start('on', { METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' });
  const off = await start('off', {});
  let scrapes = 0;
  let scrapeBytes = 0;
  const scrape = async () => {
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    scrapeBytes = (await res.text()).length;
    if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
    scrapes++;
  };
  try {
    await scrape();
    if (o.warmup > 0) {
      await runLoad(on.url, o.scenario, { ...o.settings, duration: o.warmup });
      await runLoad(off.url, o.scenario, { ...o.settings, duration: o.warmup });
    }
    const slice = { ...o.settings, duration: o.settings.duration / o.rounds };
    const ons: LoadResult[] = [];
    const offs: LoadResult[] = [];
    const measureOn = async () => {
      const failed = (err: unknown) => log(`bench: ${METRICS_SCENARIO}: scrape failed: ${String(err)}`);
      const timer = setInterval(() => void scrape().catch(failed), SCRAPE_EVERY_MS);
      try {
        ons.push(await runLoad(on.url, o.scenario, slice));
      } finally {
        clearInterval(timer);
      }
    };
    // In turn, and each first in every other round, so that neither gains from going first.
    for (let r = 0; r < o.rounds; r++) {
      if (r % 2 === 0) {
        await measureOn();
        offs.push(await runLoad(off.url, o.scenario, slice));
      } else {
        offs.push(await runLoad(off.url, o.scenario, slice));
        await measureOn();
      }
    }
    const result: MetricsOverheadResult = {
      scenario: o.scenario.name,
      on: combineLoads(ons),
      off: combineLoads(offs),
      ratio: combineLoads(ons).rps / combineLoads(offs).rps,
      roundRatios: ons.map((x, i) => x.rps / offs[i].rps),
      ratioTarget: METRICS_RATIO_TARGET,
      scrapes,
      scrapeBytes,
    };
    log(`bench:   ${formatMetricsOverhead(result)}`);
    return result;
  } finally {
    await on.stop();
    await off.stop();
  }
}

/** One line: on and off req/s, the ratio and its target. */
export function formatMetricsOverhead(m: MetricsOverheadResult): string {
  return (
    `metrics overhead (${m.scenario}): ${m.on.rps.toFixed(0)} req/s with metrics, ${m.off.rps.toFixed(0)} without; ` +
    `on ÷ off ${m.ratio.toFixed(3)} (rounds ${m.roundRatios.map((r) => r.toFixed(3)).join(', ')}; target ≥ ${m.ratioTarget}); ` +
    `${m.scrapes} scrapes of ${m.scrapeBytes} bytes`
  );
}
