/**
 * The benchmark's HTTP measurements of one scenario (bench/run.ts): the service against the
 * ceiling server in alternating rounds, and the RSS-growth soak; progress goes to `log`.
 */
import type { ApiProcess, CeilingProcess } from './processes';
import { combineLoads, probe, runLoad, type LoadResult, type LoadSettings } from './load';
import type { ScenarioResult, SoakResult } from './report';
import type { Scenario } from './scenarios';

/**
 * Measures one scenario: probes the service's answers, gives the ceiling the same bytes, warms both
 * up, then runs the same load alternately against the service and the ceiling, `rounds` times
 * `duration / rounds` seconds each, so that both see the same background load of a shared machine.
 */
export async function measureScenario(
  scenario: Scenario,
  api: ApiProcess,
  ceiling: CeilingProcess,
  settings: LoadSettings,
  warmup: number,
  rounds: number,
  log: (message: string) => void,
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
  const cpuMs = { total: 0, main: 0 };
  for (let r = 0; r < rounds; r++) {
    const before = api.cpu();
    services.push(await runLoad(api.url, scenario, slice));
    const after = api.cpu();
    if (before && after) {
      cpuMs.total += after.total - before.total;
      cpuMs.main += after.main - before.main;
    }
    tops.push(await runLoad(ceiling.url, scenario, slice));
  }
  const service = combineLoads(services);
  const top = combineLoads(tops);
  const ratio = service.rps / top.rps;
  const apiCpu =
    cpuMs.total > 0 && service.requests > 0
      ? { mainUs: (cpuMs.main * 1000) / service.requests, otherUs: ((cpuMs.total - cpuMs.main) * 1000) / service.requests }
      : null;
  log(
    `bench:   service ${service.rps.toFixed(0)} req/s p50 ${service.p50} p99 ${service.p99} ms` +
      `${service.non2xx + service.errors > 0 ? ` (${service.non2xx} non-2xx ${JSON.stringify(service.statusCodes)}, ${service.errors} errors)` : ''}; ` +
      `ceiling ${top.rps.toFixed(0)} req/s p99 ${top.p99} ms; ratio ${ratio.toFixed(3)}` +
      `${apiCpu ? `; API CPU per request ${apiCpu.mainUs.toFixed(0)} µs main thread + ${apiCpu.otherUs.toFixed(0)} µs other threads` : ''}` +
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
    apiCpu,
  };
}

/**
 * The RSS-growth run: the sync mix for `minutes` minutes, RSS and anonymous RSS sampled every 5 s.
 * Growth compares the mean of the last 30 s with the value after the first minute (a tenth of
 * shorter runs), so the warm-up of caches and JIT does not count as growth. The target is judged on
 * the anonymous part: RSS also counts the pages of the memory-mapped read model the run touched
 * (file pages, shared with the OS cache, bounded by the file), which grow with the data read.
 */
export async function runSoak(
  scenario: Scenario,
  api: ApiProcess,
  minutes: number,
  connections: number,
  log: (message: string) => void,
): Promise<SoakResult> {
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
