/**
 * Personal data sealed in the log (docs/DESIGN.md "Personal data"; issue 27's proof): after a
 * create, an update and a deferral through the API, the event log's files (the file and its WAL)
 * hold none of the trainee's personal values in plain text, while the read models that serve the
 * GETs do, and every GET answers them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';

const UKPRN = '10000131';

/** Every file in `dir` whose name starts with `prefix` (a SQLite file, its WAL), as one latin1 text. */
function filesText(dir: string, prefix: string): string {
  return readdirSync(dir)
    .filter((f) => f.startsWith(prefix))
    .map((f) => readFileSync(join(dir, f)).toString('latin1'))
    .join('\n');
}

describe('personal data in the event log (v2026.1)', () => {
  let api: RunningApi;
  let token: string;
  const base = '/api/v2026.1/trainees';

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken(UKPRN);
  });
  afterAll(() => api.close());

  it('keeps no personal value of a trainee in plain text in the log, and answers every one', async () => {
    const person = {
      first_names: 'Zebediah',
      last_name: 'Quillfeather',
      email: 'zebediah.quillfeather@example.org',
      ni_number: 'QQ123456C',
      provider_trainee_id: 'PTID-Quill-77',
    };
    const created = await api.request('POST', base, token, uniqueTrainee('v2026.1', person));
    expect(created.status).toBe(201);
    const id = created.body.data.trainee_id;
    const patched = await api.request('PATCH', `${base}/${id}`, token, { data: { previous_last_name: 'Abernathywick' } });
    expect(patched.status).toBe(200);
    const deferred = await api.request('POST', `${base}/${id}/defer`, token, {
      data: { defer_date: '2026-01-05', defer_reason: 'Caring for a relative in Tobermory' },
    });
    expect(deferred.status).toBe(200);

    const read = await api.request('GET', `${base}/${id}`, token);
    expect(read.body.data).toMatchObject({
      ...person,
      previous_last_name: 'Abernathywick',
      defer_reason: 'Caring for a relative in Tobermory',
    });
    const values = [...Object.values(person), 'Abernathywick', 'Tobermory', created.body.data.date_of_birth];
    const log = filesText(api.dataDir, 'events.sqlite');
    expect(log.length).toBeGreaterThan(0);
    for (const value of values) expect(log).not.toContain(value);
    // The read models serve the GETs, so they hold the values (the scan finds what is there).
    const readModels = filesText(api.dataDir, 'read-models.sqlite');
    for (const value of ['Zebediah', 'Quillfeather', 'Tobermory']) expect(readModels).toContain(value);
    // The history answers them too, opened from the log.
    const history = await api.request('GET', `${base}/${id}/history`, token);
    expect(JSON.stringify(history.body)).toContain('Abernathywick');
  });
});
