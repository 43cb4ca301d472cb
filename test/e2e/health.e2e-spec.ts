/**
 * Health and readiness (docs/operations.md "Health"): `/healthz` shows liveness only; `/readyz` answers
 * only ready or not and why (503 while the projector is stopped or a write's projection wait timed
 * out, 200 once it has caught up), no position or count; the projector stays on a poisoned event
 * (never skips it), `/readyz` says so and `admin projections status` names it.
 */
import { newEventId } from '@app/event-sourcing';
import { Projections } from '../../apps/api/src/composition/projections';
import { AdminWorker } from '../support/admin-cli';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';

/** The admin CLI, loaded once in a process of its own for this file (test/support/admin-cli.ts). */
const admin = AdminWorker.forFile();

describe('health endpoints and an event the projector cannot apply', () => {
  let api: RunningApi;
  let token: string;

  beforeAll(async () => {
    api = await RunningApi.start();
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

  it('stays on a poisoned event, never past it: /readyz says why and `admin projections status` names the event', async () => {
    const { eventStore, projector } = api.infra;
    api.app.get(Projections).waitTimeoutMs = 50;
    const metadata = { occurredAt: new Date().toISOString(), schemaVersion: 1 };
    const poison = await eventStore.appendToStream('trainee-POISON', [{ id: newEventId(), type: 'TraineeRegistered', data: {}, metadata }]);
    expect(await projector!.waitFor(poison.position, 200)).toBe(false);

    // A later write is stored (durable: 201 after its projection wait timed out) but not projected past the poison.
    const created = await api.request('POST', '/api/v2025.0/trainees', token, uniqueTrainee('v2025.0'));
    expect(created.status).toBe(201);
    const stuck =
      'the projector cannot apply an event and retries it; nothing after it is projected until it applies (see the logs and `admin projections status`)';
    const ready = await api.request('GET', '/readyz', null);
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ ready: false, reasons: [stuck, 'a write timed out waiting for the projection and is not projected yet'] });
    expect(projector!.checkpoint).toBeLessThan(poison.position);
    expect(projector!.health()).toMatchObject({
      state: 'failing',
      failure: { kind: 'apply', stream_id: 'trainee-POISON', revision: 0, type: 'TraineeRegistered', position: poison.position },
    });

    const status = await admin.run(['projections', 'status', '--json'], api.dataDir);
    expect(status.code).toBe(0);
    const rows = JSON.parse(status.stdout) as { name: string; next_event: unknown; skipped_events: number }[];
    expect(rows.find((r) => r.name === 'trainees')).toMatchObject({
      next_event: { stream_id: 'trainee-POISON', revision: 0, type: 'TraineeRegistered', position: poison.position },
      skipped_events: 0,
    });
    const table = await admin.run(['projections', 'status'], api.dataDir);
    expect(table.stdout).toContain(`trainees: next event to apply: position ${poison.position}  trainee-POISON@0  TraineeRegistered`);
  });
});
