/**
 * Health and readiness (docs/operations.md "Health"): `/healthz` shows liveness only; `/readyz` answers
 * only ready or not and why (503 while the projector is stopped or a write's projection wait timed
 * out, 200 once it has caught up), no position or count; a poisoned event is parked (the projector
 * goes on) and shown by `admin projections status`.
 */
import { newEventId } from '@app/event-sourcing';
import { Projections } from '../../apps/api/src/composition/projections';
import { runAdmin } from '../support/admin-cli';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';

describe('health endpoints and parked events', () => {
  let api: RunningApi;
  let token: string;

  beforeAll(async () => {
    api = await RunningApi.start({ projectorMaxAttempts: 1 });
    token = await api.providerToken('10000001');
  });
  afterAll(() => api.close());

  it('GET /healthz is public and shows only liveness', async () => {
    const res = await api.request('GET', '/healthz', null);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('GET /readyz is 503 while the projector is stopped and after a write whose wait timed out, 200 once caught up', async () => {
    const ready = await api.request('GET', '/readyz', null);
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ ready: true, reasons: [] });

    const projector = api.infra.projector!;
    const projections = api.app.get(Projections);
    projections.waitTimeoutMs = 50;
    await projector.stop();
    const stopped = await api.request('GET', '/readyz', null);
    expect(stopped.status).toBe(503);
    expect(stopped.body).toEqual({ ready: false, reasons: ['the projector is stopped'] });

    // The write is durable: it answers 201 although its projection wait timed out.
    const created = await api.request('POST', '/api/v2025.0/trainees', token, uniqueTrainee('v2025.0'));
    expect(created.status).toBe(201);
    const behind = await api.request('GET', '/readyz', null);
    expect(behind.status).toBe(503);
    expect(behind.body).toEqual({
      ready: false,
      reasons: ['the projector is stopped', 'a write timed out waiting for the projection and is not projected yet'],
    });

    await projector.start();
    await projections.catchUp();
    const back = await api.request('GET', '/readyz', null);
    expect(back.status).toBe(200);
    expect(back.body).toEqual({ ready: true, reasons: [] });
    const read = await api.request('GET', `/api/v2025.0/trainees/${created.body.data.trainee_id}`, token);
    expect(read.status).toBe(200);
  });

  it('parks a poisoned event, goes on projecting, stays ready and lists it in `admin projections status`', async () => {
    const { eventStore, projector } = api.infra;
    const metadata = { occurredAt: new Date().toISOString(), schemaVersion: 1 };
    const poison = await eventStore.appendToStream('trainee-POISON', [{ id: newEventId(), type: 'TraineeRegistered', data: {}, metadata }]);
    expect(await projector!.waitFor(poison.position)).toBe(true);

    const created = await api.request('POST', '/api/v2025.0/trainees', token, uniqueTrainee('v2025.0'));
    expect(created.status).toBe(201);
    const ready = await api.request('GET', '/readyz', null);
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ ready: true, reasons: [] });

    const status = await runAdmin(['projections', 'status', '--json'], api.dataDir);
    expect(status.code).toBe(0);
    const rows = JSON.parse(status.stdout) as { name: string; parked_events: unknown[] }[];
    expect(rows.find((r) => r.name === 'trainees')?.parked_events).toEqual([
      expect.objectContaining({
        stream_id: 'trainee-POISON',
        revision: 0,
        type: 'TraineeRegistered',
        position: poison.position,
        attempts: 1,
      }),
    ]);
    expect(rows.find((r) => r.name === 'providers')?.parked_events).toEqual([]);
    const table = await runAdmin(['projections', 'status'], api.dataDir);
    expect(table.stdout).toMatch(
      new RegExp(`position ${poison.position}\\s+trainees\\s+trainee-POISON@0\\s+TraineeRegistered\\s+attempts 1`),
    );
  });
});
