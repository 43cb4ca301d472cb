/**
 * A write on a stream whose stored events were altered behind the service's back (docs/DESIGN.md
 * "Verifiable history"), at its head or anywhere before it: refused with a 500 that names nothing
 * inside, logged at error for the operator with the stream and the revision, counted for the alert
 * (`BrokenHashChain`); other trainees are written as usual.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { withoutChainKeys } from '@app/event-sourcing';
import { storedMetadata } from '@app/stores/sqlite/event-log/testing/stored-metadata';
import { createLogger } from '../../apps/api/src/observability/logger';
import { MetricsListener } from '../../apps/api/src/observability/metrics-listener';
import { RunningApi } from '../support/api-harness';
import { scrape } from '../support/metrics-scrape';
import { uniqueTrainee } from '../support/trainee-input';

const BASE = '/api/v2026.1/trainees';

describe('a write on an altered stream', () => {
  let api: RunningApi;
  let token: string;
  const lines: string[] = [];

  beforeAll(async () => {
    api = await RunningApi.start({
      logger: createLogger('info', { write: (line: string) => void lines.push(line) }),
      metrics: { port: 0, host: '127.0.0.1' },
    });
    token = await api.providerToken('10000160');
  });
  afterAll(() => api.close());

  /** A new trainee with a few events after its registration (an update, a placement); its id and the values sent. */
  async function traineeWithHistory(): Promise<{ id: string; sent: string[] }> {
    const body = uniqueTrainee('v2026.1');
    const created = await api.request('POST', BASE, token, body);
    expect(created.status).toBe(201);
    const id = (created.body as { data: { trainee_id: string } }).data.trainee_id;
    expect((await api.request('PATCH', `${BASE}/${id}`, token, { data: { middle_names: 'Quinn' } })).status).toBe(200);
    expect((await api.request('POST', `${BASE}/${id}/placements`, token, { data: { urn: '123456', name: 'Elm School' } })).status).toBe(
      201,
    );
    const data = body.data as Record<string, string>;
    return { id, sent: [data.first_names, data.last_name, data.email, data.date_of_birth, 'Quinn'] };
  }

  /** Changes the stored event at `revision` of the trainee's stream with `change` (SQL over the row), as someone with the file could. */
  function alter(id: string, revision: number, change: string, ...values: unknown[]): void {
    const db = new Database(join(api.dataDir, 'events.sqlite'));
    db.exec('DROP TRIGGER IF EXISTS events_no_update');
    db.prepare(`UPDATE events SET ${change} WHERE stream_id = ? AND revision = ?`).run(...values, `trainee-${id}`, revision);
    db.close();
  }

  function revisionsOf(id: string): number {
    const db = new Database(join(api.dataDir, 'events.sqlite'), { readonly: true });
    const { n } = db.prepare('SELECT COUNT(*) AS n FROM events WHERE stream_id = ?').get(`trainee-${id}`) as { n: number };
    db.close();
    return n;
  }

  /** A raw request: the document describes no 5xx (a fault, not an answer), so the harness would refuse it. */
  async function raw(method: string, path: string, data: unknown): Promise<{ status: number; body: unknown }> {
    const res = await fetch(`${api.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data }),
    });
    return { status: res.status, body: await res.json() };
  }

  /** The messages of the errors logged at level error or above. */
  function loggedErrors(): string[] {
    return lines
      .map((l) => JSON.parse(l) as { level: number; err?: { message?: string } })
      .filter((l) => l.level >= 50)
      .map((l) => l.err?.message ?? '');
  }

  async function brokenChainsCounted(): Promise<number> {
    const s = await scrape(`http://127.0.0.1:${api.app.get(MetricsListener).port}/metrics`);
    return s.sum('trainee_records_event_store_broken_chains_total');
  }

  const REFUSED = { status: 500, body: { errors: [{ error: 'InternalServerError', message: 'Internal server error' }] } };

  it('at its head: refused 500 without detail and logged for the operator, rather than chained onto the altered event', async () => {
    const { id, sent } = await traineeWithHistory();
    const other = await traineeWithHistory();
    const head = revisionsOf(id) - 1;
    alter(id, head, "data = data || ' '");
    const counted = await brokenChainsCounted();

    expect(await raw('PATCH', `${BASE}/${id}`, { first_names: 'Grace' })).toEqual(REFUSED);
    expect(loggedErrors()).toContain(`the stored chain of trainee-${id} breaks at revision ${head}: the write is refused`);
    expect(await brokenChainsCounted()).toBe(counted + 1);
    expect(revisionsOf(id)).toBe(head + 1);
    for (const value of [...sent, 'Grace']) expect(lines.join('\n')).not.toContain(value);
    expect((await api.request('PATCH', `${BASE}/${other.id}`, token, { data: { first_names: 'Ada' } })).status).toBe(200);
  });

  it('at revision 0, under later events: an update, a placement, a deferral and a withdrawal are all refused', async () => {
    const { id, sent } = await traineeWithHistory();
    const events = revisionsOf(id);
    expect(events).toBeGreaterThanOrEqual(3);
    alter(id, 0, "data = data || ' '");
    const counted = await brokenChainsCounted();

    const writes: Array<[string, string, unknown]> = [
      ['PATCH', `${BASE}/${id}`, { first_names: 'Grace' }],
      ['POST', `${BASE}/${id}/placements`, { urn: '654321', name: 'Oak School' }],
      ['POST', `${BASE}/${id}/defer`, { defer_date: '2026-01-05', defer_reason: 'Health' }],
      [
        'POST',
        `${BASE}/${id}/withdraw`,
        { withdrawal_date: '2026-01-10', trigger: 'trainee', future_interest: 'no', reasons: ['does_not_want_to_become_a_teacher'] },
      ],
    ];
    for (const [method, path, data] of writes) expect([path, await raw(method, path, data)]).toEqual([path, REFUSED]);
    const refusal = `the stored chain of trainee-${id} breaks at revision 0: the write is refused`;
    expect(loggedErrors().filter((m) => m === refusal)).toHaveLength(writes.length);
    expect(await brokenChainsCounted()).toBe(counted + writes.length);
    expect(revisionsOf(id)).toBe(events);
    for (const value of [...sent, 'Grace', 'Oak School']) expect(lines.join('\n')).not.toContain(value);
  });

  it("with an event's chain keys taken away, so that it would pass as stored before the chain: refused", async () => {
    const { id } = await traineeWithHistory();
    const db = new Database(join(api.dataDir, 'events.sqlite'), { readonly: true });
    const metadata = storedMetadata(db, `trainee-${id}`, 1)!;
    db.close();
    alter(id, 1, 'metadata = ?', JSON.stringify(withoutChainKeys(JSON.parse(metadata) as Record<string, unknown>)));

    expect(await raw('PATCH', `${BASE}/${id}`, { first_names: 'Grace' })).toEqual(REFUSED);
    expect(loggedErrors()).toContain(`the stored chain of trainee-${id} breaks at revision 1: the write is refused`);
  });
});
