// Slow by design: files of 1,000 rows and of 1 MiB checked in the background, three of them waiting behind another provider's.
/**
 * One provider's uploads cannot stall or bloat the service (docs/DESIGN.md "Uploads";
 * docs/operations.md "Limits"): a file's records are bounded before they are read, the file and its
 * messages live outside the append-only log and are gone from every file of DATA_DIR after the
 * purge, each provider has quotas, the list reads no file, and the background takes the providers
 * in turn.
 */
import { randomBytes } from 'node:crypto';
import { LOG_START, type LogPosition } from '@app/event-sourcing';
import { addTraineeColumns } from '@app/uploads/write';
import { Uploads } from '../../apps/api/src/uploads/uploads';
import { RunningApi, type JsonResponse } from '../support/api-harness';
import { allFilesText } from '../support/data-dir-files';
import { PageClient } from '../support/page-client';
import { csvFile, traineeRows } from '../support/upload-files';

const V = 'v2026.1';
const CSV = { 'content-type': 'text/csv' };
const DAY = 86_400_000;

/** The upload once its check (or its submit) is over, polled. */
async function settled(api: RunningApi, token: string, id: string): Promise<any> {
  for (let i = 0; i < 1200; i++) {
    const res = await api.request('GET', `/api/${V}/trainee-uploads/${id}`, token);
    if (res.body.data.status !== 'pending' && res.body.data.status !== 'in_progress') return res.body.data;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`upload ${id} did not settle`);
}

/** A file of 1,000 rows, each with `marker` in a value too long for its column, padded to at most 1 MiB. */
function megabyteFile(marker: string): string {
  const rows = traineeRows(V, 1000);
  const room = Math.floor((1_048_576 - Buffer.byteLength(csvFile(V, rows))) / rows.length) - 4;
  const padded = rows.map((r, i) => ({ ...r, previous_last_name: `${marker}-${i}-`.padEnd(room, 'x') }));
  const file = csvFile(V, padded);
  expect(Buffer.byteLength(file)).toBeGreaterThan(1_000_000);
  expect(Buffer.byteLength(file)).toBeLessThanOrEqual(1_048_576);
  return file;
}

/** Every event of the log, as stored: its data and metadata's JSON length. */
async function eventSizes(api: RunningApi): Promise<{ type: string; bytes: number }[]> {
  const sizes: { type: string; bytes: number }[] = [];
  for (let from: LogPosition = LOG_START; ;) {
    const batch = await api.infra.storedLog.readAll({ fromPosition: from, maxCount: 1000 });
    if (batch.length === 0) return sizes;
    for (const e of batch) sizes.push({ type: e.type, bytes: Buffer.byteLength(JSON.stringify({ data: e.data, metadata: e.metadata })) });
    from = batch[batch.length - 1].position;
  }
}

describe('uploads bounded: the log, the files, the work', () => {
  let api: RunningApi;
  let tokenA: string;
  let tokenB: string;

  beforeAll(async () => {
    api = await RunningApi.start();
    tokenA = await api.providerToken('10000471');
    tokenB = await api.providerToken('10000472');
  });
  afterAll(() => api.close());

  const upload = (body: string, token = tokenA): Promise<JsonResponse> =>
    api.request('POST', `/api/${V}/trainee-uploads`, token, body, CSV);

  it('refuses a file of blank lines past the bound on records, naming it, and reads none past it', async () => {
    const header = `${addTraineeColumns(V).join(',')}\r\n`;
    const row = csvFile(V, traineeRows(V, 1)).split('\r\n')[1];
    // One row, then 524,000 blank lines: 1 MiB.
    const blankLines = `${header}${row}\r\n${'\r\n'.repeat(Math.floor((1_048_576 - header.length - row.length - 2) / 2))}`;
    expect(Buffer.byteLength(blankLines)).toBeGreaterThan(1_048_570);
    const refused = await upload(blankLines);
    expect(refused).toMatchObject({
      status: 422,
      body: {
        errors: [
          { error: 'UnprocessableEntity', message: 'The selected file must have at most 2,000 rows after the header, blank rows included' },
        ],
      },
    });
    const justUnder = `${header}${row}\r\n${'\r\n'.repeat(1999)}`;
    expect((await upload(justUnder)).status).toBe(202);
  });

  it('keeps a 1 MiB upload out of the log (no event over 64 KiB); after its purge no byte of its file is in any file of DATA_DIR', async () => {
    const marker = `Quokka${randomBytes(6).toString('hex')}`;
    const posted = await upload(megabyteFile(marker));
    expect(posted.status).toBe(202);
    const id = posted.body.data.upload_id as string;
    const checked = await settled(api, tokenA, id);
    expect(checked).toMatchObject({ status: 'failed', row_count: 1000, error_count: 1000 });
    expect(checked.errors[0]).toMatchObject({ row: 2, column: 'previous_last_name' });

    const sizes = await eventSizes(api);
    expect(sizes.filter((s) => s.bytes > 65_536)).toEqual([]);
    expect(sizes.map((s) => s.type)).toEqual(expect.arrayContaining(['UploadReceived', 'UploadChecked']));

    const files = api.app.get(Uploads).ports.files;
    const sealed = Buffer.from((await files.get(id, 'file'))!);
    const slice = sealed.subarray(500_000, 500_048).toString('latin1');
    expect(allFilesText(api.dataDir)).toContain(slice);
    expect(allFilesText(api.dataDir)).not.toContain(marker);

    const cancelled = await api.request('DELETE', `/api/${V}/trainee-uploads/${id}`, tokenA);
    expect(await api.app.get(Uploads).purge(new Date(Date.parse(cancelled.body.data.ended_at) + 31 * DAY))).toBeGreaterThanOrEqual(1);
    const after = allFilesText(api.dataDir);
    expect(after).not.toContain(slice);
    expect(after).not.toContain(sealed.subarray(0, 48).toString('latin1'));
    expect(after).not.toContain(marker);
    expect((await api.request('GET', `/api/${V}/trainee-uploads/${id}`, tokenA)).status).toBe(404);
  }, 120_000);

  it('lists uploads without reading any file, and pages what it lists', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const posted = await upload(csvFile(V, traineeRows(V, 2)), tokenB);
      ids.push(posted.body.data.upload_id);
      await settled(api, tokenB, posted.body.data.upload_id);
    }
    const files = api.app.get(Uploads).ports.files;
    const get = files.get.bind(files);
    const read: string[] = [];
    files.get = (uploadId, part) => (read.push(part), get(uploadId, part));
    try {
      const page = await api.request('GET', `/api/${V}/trainee-uploads?per_page=1&page=2`, tokenB);
      expect(page.body.data.map((u: { upload_id: string }) => u.upload_id)).toEqual([ids[1]]);
      expect(page.body.meta).toMatchObject({ total_count: 3, total_pages: 3 });
      expect((await api.request('GET', `/api/${V}/trainee-uploads?per_page=100`, tokenB)).body.data).toHaveLength(3);
    } finally {
      files.get = get;
    }
    expect(read).toEqual([]);
  });

  it("works another provider's one-row file while the first provider's large files still wait their turn", async () => {
    const tokenC = await api.providerToken('10000473');
    const tokenD = await api.providerToken('10000474');
    const large: string[] = [];
    for (let i = 0; i < 3; i++) large.push((await upload(csvFile(V, traineeRows(V, 1000)), tokenC)).body.data.upload_id);
    const small = (await upload(csvFile(V, traineeRows(V, 1)), tokenD)).body.data.upload_id as string;
    expect(await settled(api, tokenD, small)).toMatchObject({ status: 'validated', row_count: 1 });
    const last = await api.request('GET', `/api/${V}/trainee-uploads/${large[2]}`, tokenC);
    expect(last.body.data.status).toBe('pending');
    for (const id of large) expect(await settled(api, tokenC, id)).toMatchObject({ status: 'validated', row_count: 1000 });
  }, 180_000);
});

describe("a provider's upload quotas", () => {
  let api: RunningApi;
  let fileBytes: number;
  const file = () => csvFile(V, traineeRows(V, 1));

  beforeAll(async () => {
    fileBytes = Buffer.byteLength(file());
    api = await RunningApi.start({ uploadQuotas: { pendingMax: 2, dailyBytes: Math.floor(3.5 * fileBytes) } });
    // Nothing is checked: every upload stays pending.
    await api.app.get(Uploads).worker.stop();
  });
  afterAll(() => api.close());

  it('refuses a third upload waiting for its check with 429, Retry-After and the limit named; another provider is not held', async () => {
    const token = await api.providerToken('10000481');
    for (let i = 0; i < 2; i++) expect((await api.request('POST', `/api/${V}/trainee-uploads`, token, file(), CSV)).status).toBe(202);
    const refused = await api.request('POST', `/api/${V}/trainee-uploads`, token, file(), CSV);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(refused.body).toEqual({
      errors: [
        {
          error: 'TooManyRequests',
          message: '2 files are still being checked, the most a provider may have waiting: upload this file once one of them is checked',
        },
      ],
    });
    const other = await api.providerToken('10000482');
    expect((await api.request('POST', `/api/${V}/trainee-uploads`, other, file(), CSV)).status).toBe(202);
  });

  it('refuses a file that would take the bytes uploaded in the UTC day past the quota, until midnight UTC', async () => {
    const token = await api.providerToken('10000483');
    const quotas = api.app.get(Uploads).ports.quotas;
    quotas.pendingMax = 10;
    try {
      for (let i = 0; i < 3; i++) expect((await api.request('POST', `/api/${V}/trainee-uploads`, token, file(), CSV)).status).toBe(202);
      const refused = await api.request('POST', `/api/${V}/trainee-uploads`, token, file(), CSV);
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      const now = Date.now();
      expect(retryAfter).toBeGreaterThanOrEqual(Math.floor((DAY - (now % DAY)) / 1000) - 5);
      expect(retryAfter).toBeLessThanOrEqual(86_400);
      expect(refused.body.errors[0].message).toBe(
        `The selected file would take the files uploaded today past ${Math.floor(3.5 * fileBytes).toLocaleString('en-GB')} bytes, ` +
          'the most a provider may upload in a day (UTC): upload it after midnight UTC',
      );
    } finally {
      quotas.pendingMax = 2;
    }
  });

  it('shows the same refusal on the uploads page as a GOV.UK error summary, 429 with Retry-After', async () => {
    const token = await api.providerToken('10000484');
    const page = new PageClient(api.baseUrl);
    expect((await page.signIn(token)).status).toBe(303);
    await page.get('/uploads');
    for (let i = 0; i < 2; i++) expect((await page.upload(file())).status).toBe(303);
    await page.get('/uploads');
    const refused = await page.upload(file());
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(refused.text).toContain('There is a problem');
    expect(refused.text).toContain(
      '<li><a href="#file">2 files are still being checked, the most a provider may have waiting: upload this file once one of them is checked</a></li>',
    );
  });
});
