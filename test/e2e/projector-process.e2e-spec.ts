import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { traineeStreamId } from '@app/trainees/decider';
import { exampleRegistration } from '@app/trainees/decider/testing/trainee-events';
import { toEventData, newEventId } from '@app/event-sourcing';
import { openSqliteEventStore, type SqliteEventStore, SqliteReadModel } from '@app/stores/sqlite';
import { loadServiceKey } from '@app/runtime/process';
import { PROJECTED_STREAMS } from '@app/runtime/projector';
import { TsProcess } from '../support/processes';

/**
 * Appends the registration of trainee `T<n>` (4 events: the example trainee with first names `P<n>`
 * and email `p<n>@example.com`, its placement `A<n>` and degree `B<n>`) and returns the last position.
 */
async function register(store: SqliteEventStore, n: number): Promise<number> {
  const events = exampleRegistration({
    trainee_id: `T${n}`,
    ukprn: '10000001',
    at: '2026-01-01T00:00:00.000Z',
    details: { first_names: `P${n}`, email: `p${n}@example.com` },
    placement_id: `A${n}`,
    degree_id: `B${n}`,
  });
  const r = await store.appendToStream(
    traineeStreamId(`T${n}`),
    toEventData(events, { occurredAt: new Date().toISOString() }, newEventId),
    { expectedRevision: 'no_stream' },
  );
  return r.position;
}

async function json(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.json() };
}

/** The value of the sample `name` (with its labels, as exposed) in a Prometheus text exposition; NaN when absent. */
function metricValue(exposition: string, name: string): number {
  const line = exposition.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : NaN;
}

function portOf(line: string): number {
  return (JSON.parse(line) as { port: number }).port;
}

describe('apps/projector as its own process on SQLite (SIGTERM, restart, lag)', () => {
  let dir: string;
  let store: SqliteEventStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'projector-'));
    // The sandbox key first, as the service makes it: never over a log that exists.
    loadServiceKey({ dataDir: dir, dataKeyFile: null });
    store = openSqliteEventStore(dir);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('survives SIGTERM mid-stream and a restart without skipping or repeating an event, and reports lag', async () => {
    for (let n = 0; n < 150; n++) await register(store, n);
    const env = { DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'info', REGISTRY_TRN_DELAY_MS: '3600000' };
    const first = TsProcess.start('dist/apps/projector/src/main.js', env);
    const port1 = portOf(await first.waitForLine(/health endpoints listening/));

    // Keep writing while the projector runs, then stop it in the middle of the stream.
    for (let n = 150; n < 300; n++) await register(store, n);
    expect(await first.stop('SIGTERM')).toBe(0);
    expect(first.lines.some((l) => l.includes('projector stopped'))).toBe(true);
    void port1;

    const readModel = SqliteReadModel.open(dir);
    const checkpoint = await readModel.checkpoint();
    for (let n = 300; n < 400; n++) await register(store, n);
    const head = await store.headPosition();
    const pendingAfterStop = (await store.readAll({ fromPosition: checkpoint, maxCount: 100_000, filter: PROJECTED_STREAMS })).length;
    expect(pendingAfterStop).toBeGreaterThan(0);

    const second = TsProcess.start('dist/apps/projector/src/main.js', { ...env, METRICS_PORT: '0' });
    const metricsPort = portOf(await second.waitForLine(/metrics listening/));
    const port2 = portOf(await second.waitForLine(/health endpoints listening/));
    const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    // Caught up (the machine may be loaded: up to 30 s), then: the restarted process applied exactly
    // the events after the stored checkpoint, none twice.
    let metrics = await (await fetch(metricsUrl)).text();
    for (let i = 0; i < 600 && metricValue(metrics, 'trainee_records_projector_events_applied_total') < pendingAfterStop; i++) {
      await new Promise((r) => setTimeout(r, 50));
      metrics = await (await fetch(metricsUrl)).text();
    }
    expect(await readModel.checkpoint()).toBe(head);
    expect(metricValue(metrics, 'trainee_records_projector_events_applied_total')).toBe(pendingAfterStop);
    expect(metricValue(metrics, 'trainee_records_projector_lag_events{projection="trainees"}')).toBe(0);
    expect(metricValue(metrics, 'trainee_records_projector_live')).toBe(1);
    // Readiness is ready or not and why; liveness is only that: no positions or counts on the health port.
    expect(await json(`http://127.0.0.1:${port2}/readyz`)).toEqual({ status: 200, body: { ready: true, reasons: [] } });
    expect((await json(`http://127.0.0.1:${port2}/healthz`)).body).toEqual({ status: 'ok' });
    expect(await second.stop('SIGTERM')).toBe(0);

    // None skipped: every trainee is projected with its whole stream (4 events: revision 3).
    for (let n = 0; n < 400; n++) {
      const t = await readModel.getTrainee(`T${n}`);
      expect(t && { id: t.trainee_id, state: t.state, placements: t.placements.length, degrees: t.degrees.length }).toEqual({
        id: `T${n}`,
        state: 'submitted_for_trn',
        placements: 1,
        degrees: 1,
      });
    }
    readModel.close();
  });

  it('refuses a bad EVENTSTORE_URL with a message and exit code 2, never falling back to SQLite', async () => {
    const bad = TsProcess.start('dist/apps/projector/src/main.js', { DATA_DIR: dir, PORT: '0', EVENTSTORE_URL: 'http://localhost:2113' });
    expect(await bad.exited).toBe(2);
    expect(bad.lines.join('\n')).toContain('EVENTSTORE_URL: must be an esdb://');
  });
});
