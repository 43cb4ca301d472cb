/**
 * A write on a stream whose stored events were altered behind the service's back (docs/DESIGN.md
 * "Verifiable history"): refused with a 500 that names nothing inside, logged at error for the
 * operator with the stream, counted for the alert; other trainees are written as usual.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { createLogger } from '../../apps/api/src/observability/logger';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';

describe('a write on an altered stream', () => {
  let api: RunningApi;
  const lines: string[] = [];

  beforeAll(async () => {
    api = await RunningApi.start({ logger: createLogger('info', { write: (line: string) => void lines.push(line) }) });
  });
  afterAll(() => api.close());

  it('is refused 500 without detail and logged for the operator, rather than chained onto the altered event', async () => {
    const token = await api.providerToken('10000160');
    const created = await api.request('POST', '/api/v2026.1/trainees', token, uniqueTrainee('v2026.1'));
    expect(created.status).toBe(201);
    const id = (created.body as { data: { trainee_id: string } }).data.trainee_id;
    const other = await api.request('POST', '/api/v2026.1/trainees', token, uniqueTrainee('v2026.1'));
    expect(other.status).toBe(201);

    const db = new Database(join(api.dataDir, 'events.sqlite'));
    db.exec('DROP TRIGGER events_no_update');
    db.prepare("UPDATE events SET data = data || ' ' WHERE position = (SELECT MAX(position) FROM events WHERE stream_id = ?)").run(
      `trainee-${id}`,
    );
    const headBefore = db.prepare('SELECT MAX(position) AS p FROM events').get() as { p: number };
    db.close();

    // A raw fetch: the document describes no 5xx (a fault, not an answer), so the harness would refuse it.
    const refused = await fetch(`${api.baseUrl}/api/v2026.1/trainees/${id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { first_names: 'Grace' } }),
    });
    expect(refused.status).toBe(500);
    expect(await refused.json()).toEqual({ errors: [{ error: 'InternalServerError', message: 'Internal server error' }] });
    const logged = lines.map((l) => JSON.parse(l) as { level: number; err?: { message?: string } }).filter((l) => l.level >= 50);
    expect(logged.map((l) => l.err?.message)).toContainEqual(
      expect.stringMatching(
        new RegExp(`^the stored chain of trainee-${id} breaks at revision \\d+: the write is refused$`),
      ),
    );
    expect(lines.join('\n')).not.toContain('Grace');

    const check = new Database(join(api.dataDir, 'events.sqlite'), { readonly: true });
    expect((check.prepare('SELECT MAX(position) AS p FROM events').get() as { p: number }).p).toBe(headBefore.p);
    check.close();
    const otherId = (other.body as { data: { trainee_id: string } }).data.trainee_id;
    expect((await api.request('PATCH', `/api/v2026.1/trainees/${otherId}`, token, { data: { first_names: 'Ada' } })).status).toBe(200);
  });
});
