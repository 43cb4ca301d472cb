import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { METRIC_FAMILIES, PROCESS_FAMILIES, type MetricFamily } from '@app/runtime/telemetry';
import { MetricsListener } from '../../apps/api/src/observability/metrics-listener';
import { AdminWorker } from '../support/admin-cli';
import { RunningApi } from '../support/api-harness';
import { scrape, type Scrape } from '../support/metrics-scrape';
import { TsProcess } from '../support/processes';
import { uniqueTrainee } from '../support/trainee-input';

/** The admin CLI, loaded once in a process of its own for this file (test/support/admin-cli.ts). */
const admin = AdminWorker.forFile();

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** The families a process of `role` must declare. */
function familiesOf(role: 'api' | 'projector'): string[] {
  return (METRIC_FAMILIES as readonly MetricFamily[]).filter((f) => f.served.includes(role)).map((f) => f.name);
}

/** Every label value of a scrape, each with its sample's name. */
function labelValues(s: Scrape): string[] {
  return s.samples.flatMap((sample) => Object.values(sample.labels).map((v) => `${sample.name}: ${v}`));
}

/**
 * Metrics (docs/observability.md "Metrics"): the API and the projector process, each on its own
 * METRICS_PORT, after a create, a failed create and a rebuild by the admin CLI; what each serves,
 * with sane values, and no label holding an id, a token or personal data.
 */
describe('metrics of the API and the projector process', () => {
  let dir: string;
  let projector: TsProcess;
  let projectorMetrics: string;
  let api: RunningApi;
  let apiMetrics: string;
  let token: string;
  let created: { trainee_id: string; first_names: string; last_name: string };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'metrics-'));
    // The sandbox registry issues TRNs at once: the create's TRN request is made and counted.
    const env = { DATA_DIR: dir, PORT: '0', METRICS_PORT: '0', LOG_LEVEL: 'info', REGISTRY_TRN_DELAY_MS: '0' };
    projector = TsProcess.start('dist/apps/projector/src/main.js', env);
    const line = await projector.waitForLine(/metrics listening/);
    projectorMetrics = `http://127.0.0.1:${JSON.parse(line).port}/metrics`;
    await projector.waitForLine(/health endpoints listening/);
    api = await RunningApi.start({ dataDir: dir, projector: 'external', metrics: { port: 0, host: '127.0.0.1' } });
    apiMetrics = `http://127.0.0.1:${api.app.get(MetricsListener).port}/metrics`;
    token = await api.providerToken('10000061');
    const ok = await api.request('POST', '/api/v2025.0/trainees', token, uniqueTrainee('v2025.0'));
    expect(ok.status).toBe(201);
    created = ok.body.data;
    const refused = await api.request('POST', '/api/v2025.0/trainees', token, { data: { first_names: 'Only' } });
    expect(refused.status).toBe(422);
    const rebuilt = await admin.run(['projections', 'rebuild', 'trainees'], dir);
    expect(rebuilt.code).toBe(0);
  });

  afterAll(async () => {
    await api?.close();
    expect(await projector?.stop('SIGTERM')).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  });

  it('the API: requests by route template, method and status, with latencies; appends; Node process metrics', async () => {
    const s = await scrape(apiMetrics);
    for (const name of [...familiesOf('api'), ...PROCESS_FAMILIES]) expect([name, s.families.has(name)]).toEqual([name, true]);
    for (const name of familiesOf('projector').filter((n) => !familiesOf('api').includes(n))) expect(s.families.has(name)).toBe(false);
    const create = { route: '/api/:api_version/trainees', method: 'POST' };
    expect(s.sum('trainee_records_http_requests_total', { ...create, status: '201' })).toBe(1);
    expect(s.sum('trainee_records_http_requests_total', { ...create, status: '422' })).toBe(1);
    expect(s.sum('trainee_records_http_request_duration_seconds_count', { ...create, status: '201' })).toBe(1);
    expect(s.sum('trainee_records_http_request_duration_seconds_sum', { ...create, status: '201' })).toBeGreaterThan(0);
    // The create's claim and trainee stream (one unit), the provider's token: appended here, all ok.
    expect(s.sum('trainee_records_events_appended_total', { category: 'trainee' })).toBeGreaterThanOrEqual(1);
    expect(s.sum('trainee_records_events_appended_total', { category: 'provider' })).toBeGreaterThanOrEqual(1);
    expect(s.sum('trainee_records_event_store_append_duration_seconds_count', { outcome: 'ok' })).toBeGreaterThanOrEqual(2);
    expect(s.sum('trainee_records_event_store_append_duration_seconds_count', { outcome: 'error' })).toBe(0);
    expect(s.sum('process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024);
  });

  it('the projector: live, caught up, batches applied, stuck on no event, the rebuild run by the admin CLI, the TRN request', async () => {
    let s = await scrape(projectorMetrics);
    // The registry process manager acts after the projection: wait (up to 10 s) for its request.
    for (let i = 0; i < 100 && s.sum('trainee_records_registry_requests_total') === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      s = await scrape(projectorMetrics);
    }
    expect(s.sum('trainee_records_registry_requests_total', { operation: 'request_trn', outcome: 'ok' })).toBe(1);
    expect(s.sum('trainee_records_registry_request_duration_seconds_count', { operation: 'request_trn' })).toBe(1);
    for (const name of [...familiesOf('projector'), ...PROCESS_FAMILIES]) expect([name, s.families.has(name)]).toEqual([name, true]);
    expect(s.families.has('trainee_records_http_requests_total')).toBe(false);
    expect(s.sum('trainee_records_projector_live')).toBe(1);
    expect(s.sum('trainee_records_projector_events_applied_total')).toBeGreaterThanOrEqual(2);
    expect(s.sum('trainee_records_projector_batch_duration_seconds_count')).toBeGreaterThanOrEqual(1);
    for (const projection of ['trainees', 'providers']) {
      expect(s.find('trainee_records_projector_lag_events', { projection })).toEqual([
        { name: 'trainee_records_projector_lag_events', labels: { projection }, value: 0 },
      ]);
      expect(s.sum('trainee_records_projector_lag_seconds', { projection })).toBe(0);
      expect(s.sum('trainee_records_projection_rebuild_needed', { projection })).toBe(0);
    }
    expect(s.sum('trainee_records_projector_stuck_seconds')).toBe(0);
    expect(s.sum('trainee_records_rebuild_in_progress', { projection: 'trainees' })).toBe(0);
    expect(s.sum('trainee_records_rebuild_events_applied', { projection: 'trainees' })).toBeGreaterThanOrEqual(2);
    expect(s.sum('trainee_records_rebuild_events_per_second', { projection: 'trainees' })).toBeGreaterThan(0);
    expect(s.find('trainee_records_rebuild_events_applied', { projection: 'providers' })).toEqual([]);
    expect(s.sum('trainee_records_registry_backlog_events')).toBe(0);
    expect(s.sum('trainee_records_webhook_pending_deliveries')).toBe(0);
  });

  it('no label holds an id, a token, a UKPRN or personal data', async () => {
    const values = [...labelValues(await scrape(apiMetrics)), ...labelValues(await scrape(projectorMetrics))];
    expect(values.length).toBeGreaterThan(20);
    const secrets = [token, created.trainee_id, '10000061', created.first_names, created.last_name];
    expect(values.filter((v) => UUID.test(v) || secrets.some((x) => v.includes(x)))).toEqual([]);
  });

  it('the public API port does not serve the metrics', async () => {
    expect((await api.request('GET', '/metrics', null)).status).toBe(404);
    expect((await fetch(apiMetrics.replace('/metrics', '/other'))).status).toBe(404);
  });
});

describe('metrics of the API projecting in-process', () => {
  let api: RunningApi;
  let metricsUrl: string;

  beforeAll(async () => {
    api = await RunningApi.start({ metrics: { port: 0, host: '127.0.0.1' }, rateLimitIpPerMinute: 2 });
    metricsUrl = `http://127.0.0.1:${api.app.get(MetricsListener).port}/metrics`;
  });
  afterAll(() => api?.close());

  it('serves the families of both roles on one listener, and counts requests refused by a rate limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await api.request('GET', '/api/v2025.0/info', null)).status);
    const refused = statuses.filter((s) => s === 429).length;
    expect(refused).toBeGreaterThanOrEqual(1);
    const s = await scrape(metricsUrl);
    for (const name of [...familiesOf('api'), ...familiesOf('projector')]) expect([name, s.families.has(name)]).toEqual([name, true]);
    expect(s.sum('trainee_records_http_rate_limited_total', { limit: 'client' })).toBe(refused);
    expect(s.sum('trainee_records_http_requests_total', { status: '429' })).toBe(refused);
    expect(s.sum('trainee_records_projector_live')).toBe(1);
  });
});
