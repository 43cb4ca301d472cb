/**
 * Erasing a trainee purges every upload of its provider that holds a row of it, whatever the
 * upload's state (docs/DESIGN.md "Personal data"; docs/operations.md "Erasing a trainee"): the
 * usual "upload, fix, upload again" leaves the person's row in no upload, failed or cancelled ones
 * included, while the provider's uploads of other people stay as they were; an upload being
 * checked ends quietly, purged, and one being submitted writes its rows and is purged as it ends.
 */
import { runUploadWork, unsettledUploads } from '@app/uploads/write';
import { Uploads } from '../../apps/api/src/uploads/uploads';
import { AdminWorker } from '../support/admin-cli';
import { RunningApi } from '../support/api-harness';
import { allFilesText } from '../support/data-dir-files';
import { uniqueTrainee } from '../support/trainee-input';
import { csvFile, traineeRows } from '../support/upload-files';

/** The admin CLI, loaded once in a process of its own for this file (test/support/admin-cli.ts). */
const admin = AdminWorker.forFile();

const UKPRN = '10000471';
const V = 'v2026.1';
const CSV = { 'content-type': 'text/csv' };

describe('erasure purges every upload holding the trainee’s row', () => {
  let api: RunningApi;
  let token: string;

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken(UKPRN);
  });
  afterAll(() => api.close());

  const path = (id: string, rest = '') => `/api/${V}/trainee-uploads/${id}${rest}`;
  const upload = async (rows: Record<string, string>[]): Promise<string> => {
    const posted = await api.request('POST', `/api/${V}/trainee-uploads`, token, csvFile(V, rows), CSV);
    expect(posted.status).toBe(202);
    return posted.body.data.upload_id as string;
  };
  /** The upload once its background work has moved it past `pending` / `in_progress`. */
  const settled = async (id: string): Promise<any> => {
    for (let i = 0; i < 600; i++) {
      const res = await api.request('GET', path(id), token);
      expect(res.status).toBe(200);
      if (res.body.data.status !== 'pending' && res.body.data.status !== 'in_progress') return res.body.data;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`upload ${id} did not settle`);
  };
  const erase = (traineeId: string) => admin.run(['trainee', 'erase', traineeId, '--reason', 'Request DPO-9', '--by', 'dpo'], api.dataDir);
  /** Whether any file under DATA_DIR holds `value`, ignoring case (read in a child process; never printed). */
  const inDataDir = (value: string) => allFilesText(api.dataDir).toLowerCase().includes(value.toLowerCase());

  it('upload, fix, upload again: after the erasure no upload of any state holds the person, and the others are as they were', async () => {
    const [row] = traineeRows(V, 1);
    const person = { ...row, first_names: 'Perpetua', last_name: 'Thistlemarrow', email: 'p.thistlemarrow@example.org' };
    // First try: a code not in its list; the name written in capitals. It fails.
    const failed = await upload([{ ...person, last_name: 'THISTLEMARROW', study_mode: 'zz' }]);
    expect(await settled(failed)).toMatchObject({ status: 'failed', error_count: 1 });
    // Second try: the date of birth mistyped, the email another; it fails, and the provider cancels it.
    const cancelled = await upload([{ ...person, date_of_birth: '1990-02-30', email: 'perpetua@example.net' }]);
    expect(await settled(cancelled)).toMatchObject({ status: 'failed' });
    expect((await api.request('DELETE', path(cancelled), token)).status).toBe(200);
    // Fixed: it validates, and its submit creates the trainee.
    const added = await upload([person]);
    expect(await settled(added)).toMatchObject({ status: 'validated' });
    expect((await api.request('POST', path(added, '/submit'), token)).status).toBe(202);
    const traineeId = (await settled(added)).rows[0].trainee_id as string;
    // The provider's uploads of other people: one failed, one checked clean.
    const others = traineeRows(V, 3);
    const otherFailed = await upload([others[0], { ...others[1], study_mode: 'zz' }]);
    const otherChecked = await upload([others[2]]);
    await settled(otherFailed);
    await settled(otherChecked);

    const before = new Map<string, { answer: unknown; errors: string }>();
    for (const id of [failed, cancelled, added, otherFailed, otherChecked]) {
      const errors = await api.request('GET', path(id, '/errors'), token);
      expect(errors.status).toBe(200);
      before.set(id, { answer: (await api.request('GET', path(id), token)).body, errors: errors.text });
    }
    for (const id of [failed, cancelled]) expect(before.get(id)!.errors.toLowerCase().includes('thistlemarrow')).toBe(true);
    // The scan finds what is there: the read model holds the trainee's name before the erasure.
    expect(inDataDir('Thistlemarrow')).toBe(true);

    const erased = await erase(traineeId);
    expect(erased.code).toBe(0);
    expect(erased.stdout).toMatch(/; 3 uploads purged\n$/);
    await api.infra.catchUp();

    for (const id of [failed, cancelled, added]) {
      expect((await api.request('GET', path(id), token)).status).toBe(404);
      expect((await api.request('GET', path(id, '/errors'), token)).status).toBe(404);
      expect(await api.app.get(Uploads).ports.files.parts(id)).toEqual([]);
    }
    for (const id of [otherFailed, otherChecked]) {
      expect((await api.request('GET', path(id), token)).body).toEqual(before.get(id)!.answer);
      expect((await api.request('GET', path(id, '/errors'), token)).text).toBe(before.get(id)!.errors);
    }
    const listed = (await api.request('GET', `/api/${V}/trainee-uploads`, token)).body.data.map((u: { upload_id: string }) => u.upload_id);
    expect(listed).toEqual([otherChecked, otherFailed]);
    for (const value of ['Thistlemarrow', 'Perpetua', 'p.thistlemarrow@example.org', 'perpetua@example.net']) {
      expect(inDataDir(value)).toBe(false);
    }
  }, 120_000);

  describe('an upload at work when the erasure comes', () => {
    beforeAll(() => api.app.get(Uploads).worker.stop());

    /** A trainee created through the API with `details`; its id. */
    const created = async (details: Record<string, string>): Promise<string> => {
      const body = uniqueTrainee(V, details);
      delete body.data.trn;
      const res = await api.request('POST', `/api/${V}/trainees`, token, body);
      expect(res.status).toBe(201);
      return res.body.data.trainee_id as string;
    };

    it('being checked: the check ends without an error, the upload purged, no part of it left', async () => {
      const traineeId = await created({ first_names: 'Ermentrude', last_name: 'Gallowglass' });
      const [row] = traineeRows(V, 1);
      const id = await upload([{ ...row }, { ...row, first_names: 'Ermentrude', last_name: 'Gallowglass', email: 'eg@example.org' }]);
      const uploads = api.app.get(Uploads);
      let erasure: Promise<{ code: number; stdout: string }> | null = null;
      // The erasure comes between the check's first and second rows.
      const pace = { next: async () => void (await (erasure ??= erase(traineeId))) };
      await expect(runUploadWork(uploads.ports, id, pace)).resolves.toBeUndefined();
      expect((await erasure!).stdout).toMatch(/; 1 uploads purged\n$/);
      expect((await api.request('GET', path(id), token)).status).toBe(404);
      expect(await uploads.ports.files.parts(id)).toEqual([]);
      expect(await unsettledUploads(uploads.ports)).not.toContain(id);
    }, 60_000);

    it('being submitted: marked, it writes its rows, and its end purges it at once', async () => {
      const traineeId = await created({ first_names: 'Barnabas', last_name: 'Wolstenholme', date_of_birth: '1987-05-06' });
      const [row, another] = traineeRows(V, 2);
      // The same names, another date of birth and email: not a duplicate, so it validates.
      const id = await upload([{ ...row, first_names: 'Barnabas', last_name: 'Wolstenholme', email: 'bw@example.org' }, another]);
      const uploads = api.app.get(Uploads);
      await runUploadWork(uploads.ports, id);
      expect((await api.request('POST', path(id, '/submit'), token)).status).toBe(202);

      const erased = await erase(traineeId);
      expect(erased.stdout).toMatch(/; 0 uploads purged, 1 more as their submit ends\n$/);
      expect((await api.request('GET', path(id), token)).body.data.status).toBe('in_progress');

      await runUploadWork(uploads.ports, id);
      expect((await api.request('GET', path(id), token)).status).toBe(404);
      expect(await uploads.ports.files.parts(id)).toEqual([]);
      expect(await uploads.ports.keys!.existingKey(`upload-${id}`)).toBe('erased');
      expect(await unsettledUploads(uploads.ports)).not.toContain(id);
    }, 60_000);
  });
});
