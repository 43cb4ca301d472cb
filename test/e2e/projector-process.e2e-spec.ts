import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { traineeStreamId } from '@app/trainees/decider';
import { exampleRegistration } from '@app/trainees/decider/testing/trainee-events';
import { toEventData, newEventId } from '@app/event-sourcing';
import { openSqliteEventStore, type SqliteEventStore, SqliteReadModel } from '@app/stores/sqlite';
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

function portOf(line: string): number {
  return (JSON.parse(line) as { port: number }).port;
}

describe('apps/projector as its own process on SQLite (SIGTERM, restart, lag)', () => {
  let dir: string;
  let store: SqliteEventStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'projector-'));
    store = openSqliteEventStore(dir);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('survives SIGTERM mid-stream and a restart without skipping or repeating an event, and reports lag', async () => {
    for (let n = 0; n < 150; n++) await register(store, n);
    const env = { DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'info', REGISTRY_TRN_DELAY_MS: '3600000' };
    const first = TsProcess.start('apps/projector/src/main.ts', env);
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

    const second = TsProcess.start('apps/projector/src/main.ts', env);
    const port2 = portOf(await second.waitForLine(/health endpoints listening/));
    let ready = await json(`http://127.0.0.1:${port2}/readyz`);
    for (let i = 0; i < 100 && ready.body.checkpoint < head; i++) {
      await new Promise((r) => setTimeout(r, 50));
      ready = await json(`http://127.0.0.1:${port2}/readyz`);
    }
    expect(ready.status).toBe(200);
    // The restarted process applied exactly the events after the stored checkpoint: none twice.
    expect(ready.body).toMatchObject({
      ready: true,
      reasons: [],
      projector: 'live',
      checkpoint: head,
      lag: { events: 0, seconds: 0 },
      events_applied: pendingAfterStop,
      parked_events: 0,
    });
    // Liveness only: no positions or counts.
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
    const bad = TsProcess.start('apps/projector/src/main.ts', { DATA_DIR: dir, PORT: '0', EVENTSTORE_URL: 'http://localhost:2113' });
    expect(await bad.exited).toBe(2);
    expect(bad.lines.join('\n')).toContain('EVENTSTORE_URL: must be an esdb://');
  });
});
