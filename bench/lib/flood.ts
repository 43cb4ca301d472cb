/**
 * `flood`, fairness under a flood (BENCHMARKS.md "Fairness under a flood"): while provider A lists its trainees at full speed on
 * many connections, provider B reads one trainee and one page of its list at a modest fixed rate;
 * B's p50/p99 under the flood are compared with B's own figures in the same run with no flood
 * (target: within 2×). Measured twice: with rate limits off (the bench harness's default), the
 * fairness of the server itself; and on a second API process on the same data with the per-token
 * limit at {@link FLOOD_TOKEN_LIMIT_PER_MINUTE}, the fairness that admission control gives.
 */
import autocannon from 'autocannon';
import type { Dataset } from './dataset';
import type { ProviderRef } from './dataset-trainees';

export const FLOOD_SCENARIO = 'flood';
/** B's latency under the flood ÷ idle, at most: one provider's load may no more than double another's latency. */
export const FLOOD_RATIO_TARGET = 2;
/** B's requests per second, per kind (GET one, list one page), with rate limits off. */
const VICTIM_RATE = 10;
/** The same under the per-token limit: 2 kinds × 2/s = 240 a minute, within {@link FLOOD_TOKEN_LIMIT_PER_MINUTE}. */
const LIMITED_VICTIM_RATE = 2;

/** B's latency of one kind of request, in ms. */
export interface VictimLatency {
  requests: number;
  p50: number;
  p99: number;
  non2xx: number;
}

/** What `flood` measured. */
export interface FloodResult {
  flooder: { ukprn: string; rps: number; p50: number; p99: number; non2xx: number; connections: number };
  victim: { ukprn: string; ratePerSecond: number };
  idle: { get: VictimLatency; list: VictimLatency };
  flooded: { get: VictimLatency; list: VictimLatency };
  /** Worst of the GET and list ratios, flooded ÷ idle. */
  ratioP50: number;
  ratioP99: number;
  ratioTarget: number;
  /** The API's `RATE_LIMIT_TOKEN_PER_MINUTE` during the measurement; null: rate limits off. */
  tokenLimitPerMinute: number | null;
}

const auth = (p: ProviderRef): Record<string, string> => ({ authorization: `Bearer ${p.token}` });

/** Runs B's fixed-rate GETs and lists side by side for `seconds`. */
async function victimRun(
  url: string,
  b: ProviderRef,
  cycle: number,
  seconds: number,
  rate: number,
): Promise<{ get: VictimLatency; list: VictimLatency }> {
  const ids = b.trainees.filter((t) => t.cycle === cycle).map((t) => t.id);
  let i = 0;
  const run = (path: () => string): Promise<VictimLatency> =>
    (
      autocannon({
        url,
        connections: 1,
        duration: seconds,
        overallRate: rate,
        requests: [{ setupRequest: (req) => ({ ...req, method: 'GET', path: path(), headers: auth(b) }) }],
      }) as Promise<autocannon.Result>
    ).then((r) => ({ requests: r.requests.total, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx }));
  const [get, list] = await Promise.all([
    run(() => `/api/${b.version}/trainees/${ids[i++ % ids.length]}`),
    run(() => `/api/${b.version}/trainees?per_page=50&page=1`),
  ]);
  return { get, list };
}

/**
 * Picks A (the provider with the most trainees in the current cycle) and B (the next one), measures
 * B idle for `duration` s, then B again while A floods (`connections` connections of list requests,
 * pages 1–10 of 50, after `warmup` s of flood). Throws when no two providers have current trainees.
 */
export async function measureFlood(
  url: string,
  dataset: Dataset,
  o: { duration: number; warmup: number; connections: number; tokenLimitPerMinute: number | null },
  log: (message: string) => void,
): Promise<FloodResult> {
  const cycle = dataset.currentCycle;
  const current = (p: ProviderRef): number => p.trainees.filter((t) => t.cycle === cycle).length;
  const [a, b] = [...dataset.providers].filter((p) => current(p) > 0).sort((x, y) => current(y) - current(x));
  if (!a || !b) throw new Error('flood needs two providers with trainees in the current cycle');
  log(`bench: ${FLOOD_SCENARIO}: B (${b.ukprn}) idle for ${o.duration} s`);
  const rate = o.tokenLimitPerMinute === null ? VICTIM_RATE : LIMITED_VICTIM_RATE;
  const idle = await victimRun(url, b, cycle, o.duration, rate);
  const pages = Math.max(1, Math.min(10, Math.ceil(current(a) / 50)));
  let n = 0;
  log(`bench: ${FLOOD_SCENARIO}: A (${a.ukprn}) floods on ${o.connections} connections; B measured after ${o.warmup} s`);
  const flood = autocannon({
    url,
    connections: o.connections,
    duration: o.warmup + o.duration + 1,
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          method: 'GET',
          path: `/api/${a.version}/trainees?per_page=50&page=${(n++ % pages) + 1}`,
          headers: auth(a),
        }),
      },
    ],
  }) as Promise<autocannon.Result>;
  await new Promise((r) => setTimeout(r, o.warmup * 1000));
  const flooded = await victimRun(url, b, cycle, o.duration, rate);
  const f = await flood;
  const ratio = (pick: (l: VictimLatency) => number): number =>
    Math.max(pick(flooded.get) / Math.max(pick(idle.get), 0.01), pick(flooded.list) / Math.max(pick(idle.list), 0.01));
  return {
    flooder: {
      ukprn: a.ukprn,
      rps: f.requests.total / f.duration,
      p50: f.latency.p50,
      p99: f.latency.p99,
      non2xx: f.non2xx,
      connections: o.connections,
    },
    victim: { ukprn: b.ukprn, ratePerSecond: rate },
    idle,
    flooded,
    ratioP50: ratio((l) => l.p50),
    ratioP99: ratio((l) => l.p99),
    ratioTarget: FLOOD_RATIO_TARGET,
    tokenLimitPerMinute: o.tokenLimitPerMinute,
  };
}

/** "rate limits off" or "per-token limit 3000/min". */
export function floodSetting(r: FloodResult): string {
  return r.tokenLimitPerMinute === null ? 'rate limits off' : `per-token limit ${r.tokenLimitPerMinute}/min`;
}

/**
 * The per-token limit of the second `flood` measurement: far below what A's flood asks, above B's
 * own rate there (two kinds × {@link LIMITED_VICTIM_RATE}/s), so only A is refused (429 before its
 * token is read). A's allowance is spent in the first fraction of a second of each window.
 */
export const FLOOD_TOKEN_LIMIT_PER_MINUTE = 300;

/** One line of the console report. */
export function formatFlood(r: FloodResult): string {
  const l = (x: VictimLatency): string => `p50 ${x.p50} / p99 ${x.p99} ms`;
  return (
    `flood (${floodSetting(r)}): A ${r.flooder.rps.toFixed(0)} req/s of lists on ${r.flooder.connections} connections (p50 ${r.flooder.p50} ms); ` +
    `B at ${r.victim.ratePerSecond}/s each — GET idle ${l(r.idle.get)}, flooded ${l(r.flooded.get)}; ` +
    `list idle ${l(r.idle.list)}, flooded ${l(r.flooded.list)}; ` +
    `ratio p50 ${r.ratioP50.toFixed(2)}×, p99 ${r.ratioP99.toFixed(2)}× (target ≤ ${r.ratioTarget}×)`
  );
}
