/**
 * Drives a scenario against a server with autocannon (in the harness process) and probes the
 * service's answers so the ceiling can serve bytes of the same size.
 */
import autocannon from 'autocannon';
import type { Scenario, ScenarioRequest } from './scenarios';

/** What one load run measured. */
export interface LoadResult {
  requests: number;
  seconds: number;
  /** Completed requests per second over the run. */
  rps: number;
  /** Mean latency in ms (absent in results of older harness versions). */
  mean?: number;
  /** Latency in ms. */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

/** Load settings shared by the service and the ceiling runs. */
export interface LoadSettings {
  connections: number;
  /** Seconds. */
  duration: number;
  /** Requests per second over all connections; absent: as fast as the server answers. */
  rate?: number;
}

/** The autocannon request list of a scenario: each step rebuilt before every request it sends. */
function requestsOf(scenario: Scenario): autocannon.Request[] {
  return scenario.steps.map((step) => ({
    setupRequest: (req: autocannon.Request, context: Record<string, unknown>) => ({ ...req, ...step(context) }),
  }));
}

/**
 * Runs `scenario` against `baseUrl` for `settings.duration` seconds at `settings.connections`
 * connections (at `settings.rate` requests per second where given), or until `until` settles, if sooner.
 */
export async function runLoad(baseUrl: string, scenario: Scenario, settings: LoadSettings, until?: Promise<unknown>): Promise<LoadResult> {
  const run = autocannon({
    url: baseUrl,
    connections: settings.connections,
    duration: settings.duration,
    timeout: 30,
    ...(settings.rate ? { overallRate: settings.rate } : {}),
    requests: requestsOf(scenario),
  });
  void until?.finally(() => run.stop?.());
  const result = await run;
  const statusCodes: Record<string, number> = {};
  for (const [code, s] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = Number(s.count);
  const completed = Object.values(statusCodes).reduce((a, b) => a + b, 0) || result.requests.total;
  return {
    requests: completed,
    seconds: result.duration,
    rps: completed / result.duration,
    mean: result.latency.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
  };
}

/**
 * One result of several runs: requests and seconds summed (req/s over the whole), mean, p50 and p90
 * the request-weighted means of the runs', p99 and max the worst run's (conservative).
 */
export function combineLoads(runs: LoadResult[]): LoadResult {
  if (runs.length === 1) return runs[0];
  const requests = runs.reduce((a, r) => a + r.requests, 0);
  const seconds = runs.reduce((a, r) => a + r.seconds, 0);
  const weighted = (pick: (r: LoadResult) => number): number => runs.reduce((a, r) => a + pick(r) * r.requests, 0) / Math.max(1, requests);
  const statusCodes: Record<string, number> = {};
  for (const r of runs) for (const [code, n] of Object.entries(r.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  return {
    requests,
    seconds,
    rps: requests / seconds,
    mean: Math.round(weighted((r) => r.mean ?? NaN) * 100) / 100,
    p50: Math.round(weighted((r) => r.p50) * 10) / 10,
    p90: Math.round(weighted((r) => r.p90) * 10) / 10,
    p99: Math.max(...runs.map((r) => r.p99)),
    max: Math.max(...runs.map((r) => r.max)),
    non2xx: runs.reduce((a, r) => a + r.non2xx, 0),
    errors: runs.reduce((a, r) => a + r.errors, 0),
    timeouts: runs.reduce((a, r) => a + r.timeouts, 0),
    statusCodes,
  };
}

/** The service's answer to one probe request. */
export interface ProbedAnswer {
  method: string;
  status: number;
  body: Buffer;
}

/**
 * Sends `rounds` rounds of the scenario's steps one at a time and returns, per HTTP method, the
 * answer of median size with the mean size of all — what the ceiling serves in its place.
 * Throws when a probe answers an error status (the scenario would measure errors, not work).
 */
export async function probe(
  baseUrl: string,
  scenario: Scenario,
  rounds = 7,
): Promise<Record<string, { body: Buffer; status: number; meanBytes: number }>> {
  const answers: ProbedAnswer[] = [];
  for (let round = 0; round < rounds; round++) {
    const context: Record<string, unknown> = {};
    for (const step of scenario.steps) {
      const req: ScenarioRequest = step(context);
      const res = await fetch(baseUrl + req.path, { method: req.method, headers: req.headers, body: req.body });
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status >= 400) {
        throw new Error(
          `probe of ${scenario.name}: ${req.method} ${req.path} answered ${res.status}: ${body.toString('utf8').slice(0, 500)}`,
        );
      }
      answers.push({ method: req.method, status: res.status, body });
    }
  }
  const out: Record<string, { body: Buffer; status: number; meanBytes: number }> = {};
  for (const method of new Set(answers.map((a) => a.method))) {
    const mine = answers.filter((a) => a.method === method).sort((a, b) => a.body.length - b.body.length);
    const median = mine[Math.floor(mine.length / 2)];
    out[method] = { body: median.body, status: median.status, meanBytes: mine.reduce((s, a) => s + a.body.length, 0) / mine.length };
  }
  return out;
}
