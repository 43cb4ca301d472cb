// Slow by design: a 200-row file checked, fixed and submitted through the background worker, every trainee it made read back.
import { createHash } from 'node:crypto';
import { addTraineeColumns, createBodyOf } from '@app/uploads/write';
import { parseUploadCsv } from '@app/uploads/csv';
import { RunningApi, type JsonResponse } from '../support/api-harness';
import { Uploads } from '../../apps/api/src/uploads/uploads';
import { AdminWorker } from '../support/admin-cli';
import { STORES } from '../../apps/api/src/composition/tokens';
import type { Stores } from '@app/composition';
import { recommendableTrainee, uniqueTrainee } from '../support/trainee-input';
import { templateRowOf, unsettledUploads } from '@app/uploads/write';
import { csvFile, traineeRows } from '../support/upload-files';

/** The admin CLI, loaded once in a process of its own for this file (test/support/admin-cli.ts). */
const admin = AdminWorker.forFile();

const A = '10000451';
const B = '10000452';
const V = 'v2026.1';
const CSV = { 'content-type': 'text/csv' };

describe('adding trainees from a CSV file: /api/{version}/trainee-uploads', () => {
  let api: RunningApi;
  let tokenA: string;
  let tokenB: string;

  beforeAll(async () => {
    api = await RunningApi.start();
    tokenA = await api.providerToken(A);
    tokenB = await api.providerToken(B);
  });
  afterAll(() => api.close());

  const upload = (body: string | Buffer, token = tokenA, version = V): Promise<JsonResponse> =>
    api.request('POST', `/api/${version}/trainee-uploads`, token, body, CSV);

  /** The upload once its background work has moved it past `pending` / `in_progress`. */
  const settled = (id: string, token = tokenA): Promise<any> => settledAt('trainee-uploads', id, token);

  async function settledAt(path: string, id: string, token: string): Promise<any> {
    for (let i = 0; i < 600; i++) {
      const res = await api.request('GET', `/api/${V}/${path}/${id}`, token);
      expect(res.status).toBe(200);
      if (res.body.data.status !== 'pending' && res.body.data.status !== 'in_progress') return res.body.data;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`upload ${id} did not settle`);
  }

  async function traineeCount(token = tokenA): Promise<number> {
    const res = await api.request('GET', `/api/${V}/trainees?per_page=1&academic_cycle=2025`, token);
    return res.status === 404 ? 0 : (res.body.meta.total_count as number);
  }

  it('serves each version’s template: one header row, a column per create field, nested items flattened', async () => {
    for (const version of ['v2025.0', 'v2026.1'] as const) {
      const res = await api.request('GET', `/api/${version}/trainee-uploads/template`, tokenA);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
      const header = res.text.trimEnd().split(',');
      expect(header).toEqual(addTraineeColumns(version));
      expect(header).toEqual(expect.arrayContaining(['first_names', 'disability9', 'placement_3_urn', 'degree_uk_degree']));
      expect(header.includes('iqts_country')).toBe(version === 'v2026.1');
    }
  });

  it('checks 200 rows without writing: exactly the 3 bad rows named; the fixed errors file validates; submit adds 200, each once, each in the feed', async () => {
    const existing = uniqueTrainee(V);
    delete existing.data.trn;
    const created = await api.request('POST', `/api/${V}/trainees`, tokenA, existing);
    expect(created.status).toBe(201);
    const before = await traineeCount();

    const rows = traineeRows(V, 200);
    rows[9] = { ...rows[9], first_names: '' }; // row 11: a required field missing
    rows[99] = { ...rows[99], study_mode: 'zz' }; // row 101: a code not in the list
    const good = rows[149];
    rows[149] = templateRowOf(existing.data); // row 151: a duplicate of an existing trainee
    rows[0] = { ...rows[0], provider_trainee_id: '=HYPERLINK("http://x.example","y")' };

    const posted = await upload(csvFile(V, rows));
    expect(posted.status).toBe(202);
    const id = posted.body.data.upload_id as string;
    expect(posted.headers.get('location')).toBe(`/api/${V}/trainee-uploads/${id}`);
    expect(posted.body.data.status).toBe('pending');

    const checked = await settled(id);
    expect(checked).toMatchObject({ status: 'failed', row_count: 200, error_count: 3 });
    expect(checked.errors).toEqual([
      { row: 11, column: 'first_names', message: "first_names can't be blank" },
      { row: 101, column: 'study_mode', message: expect.stringMatching(/^study_mode has invalid reference data value of 'zz'/) },
      { row: 151, column: null, message: 'This trainee is already in Register' },
    ]);
    expect(await traineeCount()).toBe(before);

    const errorsFile = await api.request('GET', `/api/${V}/trainee-uploads/${id}/errors`, tokenA);
    expect(errorsFile.status).toBe(200);
    expect(errorsFile.text).toContain(`'=HYPERLINK(""http://x.example"",""y"")`);
    const back = await parseUploadCsv(Buffer.from(errorsFile.text), { columns: addTraineeColumns(V), maxBytes: 2 ** 21, maxRows: 1000 });
    expect(back.records[0].values.provider_trainee_id).toBe('=HYPERLINK("http://x.example","y")');
    expect(errorsFile.text.split('\r\n')[0].endsWith(',errors')).toBe(true);
    expect(await api.request('POST', `/api/${V}/trainee-uploads/${id}/submit`, tokenA)).toMatchObject({ status: 422 });

    // The errors file with the 3 rows fixed (its errors column left in) validates clean.
    const fixed = errorsFile.text
      .replace(/,errors\r\n/, ',errors\r\n')
      .split('\r\n')
      .map((line, i) => (i === 10 ? line.replace(/^([^,]*),,/, '$1,Fixed,') : line))
      .join('\r\n');
    const refixed = await parseUploadCsv(Buffer.from(fixed), { columns: addTraineeColumns(V), maxBytes: 2 ** 21, maxRows: 1000 });
    expect(refixed.records[9].values.first_names).toBe('Fixed');
    const rows2 = refixed.records.map((r) => r.values);
    rows2[99] = { ...rows2[99], study_mode: rows[0].study_mode };
    rows2[149] = good;
    const second = await upload(csvFile(V, rows2, [...addTraineeColumns(V), 'errors']));
    expect(second.status).toBe(202);
    const id2 = second.body.data.upload_id as string;
    expect(await settled(id2)).toMatchObject({ status: 'validated', row_count: 200, error_count: 0, errors: [] });

    const submitted = await api.request('POST', `/api/${V}/trainee-uploads/${id2}/submit`, tokenA);
    expect(submitted.status).toBe(202);
    expect(submitted.body.data.status).toBe('in_progress');
    const done = await settled(id2);
    expect(done.status).toBe('succeeded');
    expect(done.rows).toHaveLength(200);
    const ids = done.rows.map((r: { trainee_id: string }) => r.trainee_id);
    expect(new Set(ids).size).toBe(200);
    expect(await traineeCount()).toBe(before + 200);
    const one = await api.request('GET', `/api/${V}/trainees/${ids[9]}`, tokenA); // row 11
    expect(one.body.data.first_names).toBe('Fixed');
    // A trainee added from a file says so, as the real service's bulk add does.
    expect(one.body.data.record_source).toBe('csv');

    const registered = new Set<string>();
    for (let after = ''; ;) {
      const page = await api.request('GET', `/api/${V}/changes?limit=1000${after ? `&after=${after}` : ''}`, tokenA);
      for (const c of page.body.data) if (c.type === 'TraineeRegistered') registered.add(c.trainee_id);
      after = page.body.next_cursor;
      if (!page.body.has_more) break;
    }
    expect(ids.every((t: string) => registered.has(t))).toBe(true);

    expect(await api.request('POST', `/api/${V}/trainee-uploads/${id2}/submit`, tokenA)).toMatchObject({ status: 409 });
    expect(await api.request('DELETE', `/api/${V}/trainee-uploads/${id2}`, tokenA)).toMatchObject({ status: 409 });
  }, 300_000);

  it('reports on its row a trainee created through the API between the check and the submit; the other rows go on', async () => {
    const rows = traineeRows(V, 3);
    const posted = await upload(csvFile(V, rows));
    const id = posted.body.data.upload_id as string;
    expect(await settled(id)).toMatchObject({ status: 'validated', row_count: 3 });
    const body = { data: createBodyOf(rows[1]) };
    expect((await api.request('POST', `/api/${V}/trainees`, tokenA, body)).status).toBe(201);
    expect((await api.request('POST', `/api/${V}/trainee-uploads/${id}/submit`, tokenA)).status).toBe(202);
    const done = await settled(id);
    expect(done.status).toBe('succeeded');
    expect(done.rows).toEqual([
      { row: 2, trainee_id: expect.any(String) },
      { row: 3, errors: [{ column: null, message: 'This trainee is already in Register' }] },
      { row: 4, trainee_id: expect.any(String) },
    ]);
    const errorsFile = await api.request('GET', `/api/${V}/trainee-uploads/${id}/errors`, tokenA);
    expect(errorsFile.text.split('\r\n')[2]).toMatch(/,This trainee is already in Register$/);
  });

  it("answers 404 to another provider for every resource of an upload, and lists each provider's own, newest first", async () => {
    const first = await upload(csvFile(V, traineeRows(V, 2)));
    const second = await upload(csvFile(V, traineeRows(V, 1)));
    const id = second.body.data.upload_id as string;
    await settled(id);
    for (const [method, path] of [
      ['GET', id],
      ['GET', `${id}/errors`],
      ['POST', `${id}/submit`],
      ['DELETE', id],
    ]) {
      expect(await api.request(method, `/api/${V}/trainee-uploads/${path}`, tokenB)).toMatchObject({ status: 404 });
    }
    expect((await api.request('GET', `/api/${V}/trainee-uploads`, tokenB)).body.data).toEqual([]);
    const list = await api.request('GET', `/api/${V}/trainee-uploads?per_page=2`, tokenA);
    expect(list.status).toBe(200);
    expect(list.body.data.map((u: { upload_id: string }) => u.upload_id)).toEqual([id, first.body.data.upload_id]);
    expect(list.body.meta).toMatchObject({ current_page: 1, per_page: 2 });
    expect(await api.request('GET', `/api/${V}/trainee-uploads?per_page=0`, tokenA)).toMatchObject({ status: 422 });
    const guessed = await api.request('GET', `/api/${V}/trainee-uploads?limit=2`, tokenA);
    expect(guessed.status).toBe(422);
    expect(Object.keys(guessed.body.errors)).toEqual(['limit']);

    const cancelled = await api.request('DELETE', `/api/${V}/trainee-uploads/${id}`, tokenA);
    expect(cancelled).toMatchObject({ status: 200, body: { data: { status: 'cancelled' } } });
    expect(await api.request('POST', `/api/${V}/trainee-uploads/${id}/submit`, tokenA)).toMatchObject({ status: 409 });
  });

  it('recommends the dated rows of the recommendations template through the same upload, check and submit', async () => {
    const C = '10000453';
    const tokenC = await api.providerToken(C);
    const ids: string[] = [];
    // The recommendation's own rules apply to each row.
    for (let i = 0; i < 3; i++) {
      const body = recommendableTrainee(V);
      const res = await api.request('POST', `/api/${V}/trainees`, tokenC, body);
      expect(res.status).toBe(201);
      ids.push(res.body.data.trainee_id);
    }
    const template = await api.request('GET', `/api/${V}/recommendation-uploads/template`, tokenC);
    expect(template.status).toBe(200);
    const lines = template.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('trainee_id,provider_trainee_id,trn,first_names,last_name,qts_standards_met_date');
    expect(
      lines
        .slice(1)
        .map((l) => l.split(',')[0])
        .sort(),
    ).toEqual([...ids].sort());
    expect(lines.slice(1).every((l) => l.endsWith(','))).toBe(true);

    const dated = (dates: Record<string, string>) =>
      [lines[0], ...lines.slice(1).map((l) => `${l}${dates[l.split(',')[0]] ?? ''}`)].join('\r\n') + '\r\n';
    const post = (text: string) => api.request('POST', `/api/${V}/recommendation-uploads`, tokenC, text, CSV);
    const bad = (await post(dated({ [ids[0]]: '2026-07-20', [ids[1]]: '2026-13-45' }))).body.data.upload_id as string;
    expect(await api.request('GET', `/api/${V}/trainee-uploads/${bad}`, tokenC)).toMatchObject({ status: 404 });
    const failed = await settledAt('recommendation-uploads', bad, tokenC);
    expect(failed).toMatchObject({ status: 'failed', row_count: 2, error_count: 1 });
    expect(failed.errors[0]).toMatchObject({ row: lines.findIndex((l) => l.startsWith(ids[1])) + 1, column: 'qts_standards_met_date' });
    const undated = await post(`${lines.join('\r\n')}\r\n`);
    expect(undated.status).toBe(422);
    expect(undated.body.errors[0].message).toBe('The selected file must give a qts_standards_met_date for at least one trainee');

    const good = await post(dated({ [ids[0]]: '2026-07-20', [ids[1]]: '2026-07-21' }));
    expect(good.status).toBe(202);
    const id = good.body.data.upload_id as string;
    expect(await settledAt('recommendation-uploads', id, tokenC)).toMatchObject({ status: 'validated', row_count: 2 });
    expect((await api.request('POST', `/api/${V}/recommendation-uploads/${id}/submit`, tokenC)).status).toBe(202);
    const done = await settledAt('recommendation-uploads', id, tokenC);
    expect(done).toMatchObject({ status: 'succeeded' });
    expect(done.rows.map((r: { trainee_id: string }) => r.trainee_id).sort()).toEqual([ids[0], ids[1]].sort());
    const states = await Promise.all(ids.map((t) => api.request('GET', `/api/${V}/trainees/${t}`, tokenC)));
    expect(states.map((r) => [r.body.data.state, r.body.data.outcome_date])).toEqual([
      ['recommended_for_award', '2026-07-20'],
      ['recommended_for_award', '2026-07-21'],
      ['submitted_for_trn', null],
    ]);
  });

  it('refuses a file as a whole with a clear 4xx naming why, and stays healthy', async () => {
    const header = addTraineeColumns(V).join(',');
    const big = Buffer.alloc(1_048_577, 'a');
    const tooBig = await upload(big);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.errors[0]).toEqual({ error: 'PayloadTooLarge', message: 'The selected file must be smaller than 1MB' });
    expect((await upload(Buffer.alloc(3_000_000, 'a'))).status).toBe(413);

    const latin1 = Buffer.concat([Buffer.from(`${header}\r\n`), Buffer.from([0x4a, 0xf6, 0x72, 0x67, 0x0d, 0x0a])]);
    const notUtf8 = await upload(latin1);
    expect(notUtf8).toMatchObject({ status: 422, body: { errors: [{ message: 'The selected file must be a CSV file saved as UTF-8' }] } });

    const unknown = await upload(`${header},shoe_size\r\n`);
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].message).toBe("The selected file has columns that are not in the template: 'shoe_size'");

    const headerOnly = await upload(`${header}\r\n`);
    expect(headerOnly.body.errors[0]).toEqual({
      error: 'UnprocessableEntity',
      message: 'The selected file must contain at least one trainee',
    });

    const tooMany = await upload(csvFile(V, traineeRows(V, 1001)));
    expect(tooMany).toMatchObject({
      status: 422,
      body: { errors: [{ message: 'The selected file must contain at most 1,000 trainees' }] },
    });

    const json = await api.request('POST', `/api/${V}/trainee-uploads`, tokenA, { data: {} });
    expect(json.status).toBe(415);

    expect((await api.request('GET', '/healthz', null)).status).toBe(200);
    expect((await api.request('GET', `/api/${V}/trainee-uploads`, tokenA)).status).toBe(200);
  });
  it('keeps the file outside the log, sealed, and purges an upload 30 days after it ended: its key destroyed, its file deleted, 404 after', async () => {
    const rows = traineeRows(V, 1);
    const id = (await upload(csvFile(V, rows))).body.data.upload_id as string;
    await settled(id);
    const stored = JSON.stringify(await api.infra.storedLog.readStream(`upload-${id}`));
    expect(stored).not.toContain(rows[0].last_name);
    expect(stored).toContain(createHash('sha256').update(csvFile(V, rows)).digest('hex'));
    const files = api.app.get(Uploads).ports.files;
    expect(await files.parts(id)).toEqual(['file']);
    expect(Buffer.from((await files.get(id, 'file'))!).includes(Buffer.from(rows[0].last_name))).toBe(false);
    const cancelled = await api.request('DELETE', `/api/${V}/trainee-uploads/${id}`, tokenA);
    const endedAt = Date.parse(cancelled.body.data.ended_at);
    const day = 86_400_000;
    const uploads = api.app.get(Uploads);
    await uploads.purge(new Date(endedAt + 29 * day));
    expect((await api.request('GET', `/api/${V}/trainee-uploads/${id}`, tokenA)).status).toBe(200);
    expect(await unsettledUploads(uploads.ports)).toContain(id);
    expect(await uploads.purge(new Date(endedAt + 30 * day + 1000))).toBeGreaterThanOrEqual(1);
    expect(await uploads.ports.keys!.existingKey(`upload-${id}`)).toBe('erased');
    expect(await files.parts(id)).toEqual([]);
    // Settled in the ledger: later starts and purge runs no longer read it.
    expect(await unsettledUploads(uploads.ports)).not.toContain(id);
    for (const path of [id, `${id}/errors`]) {
      expect((await api.request('GET', `/api/${V}/trainee-uploads/${path}`, tokenA)).status).toBe(404);
    }
    expect(
      (await api.request('GET', `/api/${V}/trainee-uploads`, tokenA)).body.data.map((u: { upload_id: string }) => u.upload_id),
    ).not.toContain(id);
  });
  it('purges at once the uploads that wrote to a trainee who is erased', async () => {
    const id = (await upload(csvFile(V, traineeRows(V, 2)))).body.data.upload_id as string;
    await settled(id);
    expect((await api.request('POST', `/api/${V}/trainee-uploads/${id}/submit`, tokenA)).status).toBe(202);
    const done = await settled(id);
    const erased = await admin.run(['trainee', 'erase', done.rows[0].trainee_id, '--reason', 'Request DPO-1', '--by', 'dpo'], api.dataDir);
    expect(erased.code).toBe(0);
    expect(erased.stdout).toMatch(/; 1 uploads purged/);
    expect((await api.request('GET', `/api/${V}/trainee-uploads/${id}`, tokenA)).status).toBe(404);
    expect(await unsettledUploads(api.app.get(Uploads).ports)).not.toContain(id);
    // The admin command deleted the upload's file from the upload store the API has open.
    expect(await api.app.get(Uploads).ports.files.parts(id)).toEqual([]);
    // As stored: the API's own copy of an opened key lives on in its memory for minutes (docs/DESIGN.md "Personal data").
    expect(await api.app.get<Stores>(STORES).personalData!.keys.wrappedKey(`upload-${id}`)).toBe('erased');
  });
});
