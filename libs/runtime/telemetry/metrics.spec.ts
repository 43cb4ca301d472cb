import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '@app/stores/sqlite';
import { WrongExpectedVersionError } from '@app/event-sourcing';
import { SandboxRegistry } from '@app/registry';
import { parseExposition } from '../../../test/support/metrics-scrape';
import { instrumentEventStore, streamCategory } from './instrument-event-store';
import { instrumentRegistry } from './instrument-registry';
import { Metrics } from './metrics';
import { startMetricsServer } from './metrics-server';

const warnings: string[] = [];
const logger = { warn: (message: string) => void warnings.push(message) };

describe('Metrics (docs/observability.md "Metrics")', () => {
  beforeEach(() => (warnings.length = 0));

  it("registers the families of its roles only; asking for another role's family throws", async () => {
    const api = new Metrics(['api'], logger, { processMetrics: false });
    expect(api.serves('trainee_records_http_requests_total')).toBe(true);
    expect(api.serves('trainee_records_projector_live')).toBe(false);
    expect(() => api.gauge('trainee_records_projector_live')).toThrow(/not served by this process/);
    const text = await api.exposition();
    expect(text).toContain('# TYPE trainee_records_http_requests_total counter');
    expect(text).not.toContain('trainee_records_projector_live');
    expect(text).not.toContain('process_cpu_seconds_total');
  });

  it('takes the scrape-time readings before each scrape; one that fails is logged and the others are served', async () => {
    const metrics = new Metrics(['projector'], logger, { processMetrics: false });
    let live = 0;
    metrics.onScrape(async () => void metrics.gauge('trainee_records_projector_live').set(++live));
    metrics.onScrape(async () => {
      throw new Error('store down');
    });
    expect(parseExposition(await metrics.exposition()).sum('trainee_records_projector_live')).toBe(1);
    expect(parseExposition(await metrics.exposition()).sum('trainee_records_projector_live')).toBe(2);
    expect(warnings).toEqual(['a metrics reading failed; scraped without it', 'a metrics reading failed; scraped without it']);
  });

  it('serves GET /metrics on its own listener; other paths 404, other methods 405', async () => {
    const metrics = new Metrics(['api'], logger);
    const server = await startMetricsServer(metrics, 0, '127.0.0.1');
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const ok = await fetch(`${base}/metrics`);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(parseExposition(await ok.text()).families.get('process_cpu_seconds_total')).toBe('counter');
      expect((await fetch(`${base}/`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405);
    } finally {
      await server.close();
    }
  });
});

describe('instrumentEventStore', () => {
  it('times appends by outcome, counts conflicts and events by stream category, and passes results and errors on', async () => {
    const metrics = new Metrics(['api'], logger, { processMetrics: false });
    const inner = new SqliteEventStore({ filename: ':memory:' });
    const store = instrumentEventStore(inner, metrics);
    expect(store).toBeInstanceOf(SqliteEventStore);
    const event = (type: string) => ({
      id: randomUUID(),
      type,
      data: {},
      metadata: { occurredAt: '2026-01-01T00:00:00Z', schemaVersion: 1 },
    });
    const result = await store.appendToStream('trainee-1', [event('A'), event('B')], { expectedRevision: 'no_stream' });
    expect(result.nextExpectedRevision).toBe(1);
    await expect(store.appendToStream('trainee-1', [event('C')], { expectedRevision: 0 })).rejects.toBeInstanceOf(
      WrongExpectedVersionError,
    );
    await store.appendToStream('provider-10000001', [event('D')]);
    const s = parseExposition(await metrics.exposition());
    expect(s.sum('trainee_records_events_appended_total', { category: 'trainee' })).toBe(2);
    expect(s.sum('trainee_records_events_appended_total', { category: 'provider' })).toBe(1);
    expect(s.sum('trainee_records_event_store_append_duration_seconds_count', { outcome: 'ok' })).toBe(2);
    expect(s.sum('trainee_records_event_store_append_duration_seconds_count', { outcome: 'conflict' })).toBe(1);
    expect(s.sum('trainee_records_event_store_conflicts_total')).toBe(1);
    expect((await store.readStream('trainee-1')).map((e) => e.type)).toEqual(['A', 'B']);
    await store.close();
  });

  it('labels a stream by its kind, never its id', () => {
    expect(['trainee-3f2a', 'provider-10000001', 'registrationguard-x', 'webhook-w1', 'other-1'].map(streamCategory)).toEqual([
      'trainee',
      'provider',
      'registration_guard',
      'webhook',
      'other',
    ]);
  });
});

describe('instrumentRegistry', () => {
  it('counts requests by operation and outcome; a call abandoned by its signal is not an error', async () => {
    const metrics = new Metrics(['projector'], logger, { processMetrics: false });
    const registry = instrumentRegistry(new SandboxRegistry({ trnDelayMs: 60_000 }), metrics);
    const request = {
      idempotency_key: 'k',
      trainee_id: 't',
      provider_ukprn: '10000001',
      first_names: 'A',
      last_name: 'B',
      date_of_birth: '2000-01-01',
    };
    const abort = new AbortController();
    const pending = registry.requestTrn(request as never, abort.signal);
    abort.abort();
    await expect(pending).rejects.toBeDefined();
    const failing = instrumentRegistry(
      { requestTrn: async () => Promise.reject(new Error('down')), recommendForAward: async () => ({ awarded_at: '' }) },
      metrics,
    );
    await expect(failing.requestTrn(request as never)).rejects.toThrow('down');
    await failing.recommendForAward({} as never);
    const s = parseExposition(await metrics.exposition());
    expect(s.sum('trainee_records_registry_requests_total', { operation: 'request_trn', outcome: 'error' })).toBe(1);
    expect(s.sum('trainee_records_registry_requests_total', { operation: 'recommend_for_award', outcome: 'ok' })).toBe(1);
    expect(s.sum('trainee_records_registry_request_duration_seconds_count', { operation: 'request_trn' })).toBe(2);
  });
});
