/**
 * Personal data sealed in the log and erased (docs/DESIGN.md "Personal data"):
 * after writes through the API the event log's files (the file and its WAL) hold none of a
 * trainee's personal values in plain text, while the read models that serve the GETs do; after
 * `admin trainee erase`, no byte under the data dir nor of an export holds the erased trainee's,
 * the API answers 404 for it, the auditor's history shows every event with `[erased]` values, and a
 * projection rebuild gives the same answers and feed as before it.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { newEventId, toEventData } from '@app/event-sourcing';
import { duplicateGuardKey, FLAGGED_PERSONAL_FIELDS, REGISTRATION_GUARD_STREAM_PREFIX, traineeStreamId } from '@app/trainees/decider';
import { exampleRegistration } from '@app/trainees/decider/testing/trainee-events';
import { openSqliteEventStore } from '@app/stores/sqlite';
import { loadServiceKey } from '@app/runtime/process';
import { AdminWorker } from '../support/admin-cli';
import { allFilesText, filesText } from '../support/data-dir-files';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';

const UKPRN = '10000131';

/**
 * The admin CLI loaded once in a process of its own, for commands run again here; the first run of
 * each command, and the runs about the program itself, start it as operators do.
 */
const admin = AdminWorker.forFile();

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

describe('erasing a trainee (admin trainee erase)', () => {
  let api: RunningApi;
  let token: string;
  const base = '/api/v2026.1/trainees';
  const erasedPerson = {
    first_names: 'Ottoline',
    last_name: 'Brackenridge',
    email: 'ottoline.brackenridge@example.org',
    ni_number: 'QQ654321A',
  };
  const keptPerson = {
    first_names: 'Percival',
    last_name: 'Hawthornedge',
    email: 'percival.hawthornedge@example.org',
    ni_number: 'QQ112233B',
  };
  let erasedId: string;
  let keptId: string;

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken('10000132');
    const created = await api.request('POST', base, token, uniqueTrainee('v2026.1', { ...erasedPerson, placements_attributes: [] }), {
      'idempotency-key': 'erase-me-1',
    });
    expect(created.status).toBe(201);
    erasedId = created.body.data.trainee_id;
    keptId = (await api.request('POST', base, token, uniqueTrainee('v2026.1', keptPerson))).body.data.trainee_id;
    expect((await api.request('PATCH', `${base}/${erasedId}`, token, { data: { middle_names: 'Wilhelmina' } })).status).toBe(200);
    expect(
      (await api.request('POST', `${base}/${erasedId}/placements`, token, { data: { urn: '100038', name: 'Ash Academy' } })).status,
    ).toBe(201);
    const deferred = await api.request('POST', `${base}/${erasedId}/defer`, token, {
      data: { defer_date: '2026-01-05', defer_reason: 'Sabbatical in Portmeirion' },
    });
    expect(deferred.status).toBe(200);
    expect((await api.request('GET', `${base}/${erasedId}/history`, token)).status).toBe(200);
  });
  afterAll(() => api.close());

  it('erases: 404 on the API, out of lists, every event still in the auditor’s history with [erased] values', async () => {
    const before = await admin.run(['trainee', 'history', erasedId, '--json'], api.dataDir);
    const feedBefore = (await api.request('GET', '/api/v2026.1/changes?limit=100', token)).body.data;
    const backups = mkdtempSync(join(tmpdir(), 'erasure-ledger-'));
    const erased = await admin.run(
      ['trainee', 'erase', erasedId, '--reason', 'Request DPO-2026-17', '--by', 'data.protection'],
      api.dataDir,
      { BACKUP_DIR: backups },
    );
    rmSync(backups, { recursive: true, force: true });
    expect(erased.stderr).toBe('');
    expect(erased.code).toBe(0);
    expect(erased.stdout).not.toMatch(/Ottoline|Brackenridge|ottoline|QQ654321A/);
    expect(erased.stdout).toMatch(new RegExp(`^Erased trainee ${erasedId}: its data key is destroyed; its \\d+ events read \\[erased\\]`));

    await api.infra.catchUp();
    for (const path of ['', '/placements', '/degrees', '/history'])
      expect((await api.request('GET', `${base}/${erasedId}${path}`, token)).status).toBe(404);
    expect((await api.request('PATCH', `${base}/${erasedId}`, token, { data: { middle_names: 'X' } })).status).toBe(404);
    const list = await api.request('GET', `${base}?academic_cycle=2025&per_page=100`, token);
    expect(list.body.data.map((t: { trainee_id: string }) => t.trainee_id)).toEqual([keptId]);
    expect((await api.request('GET', `${base}/${keptId}`, token)).body.data).toMatchObject(keptPerson);
    // The feed keeps the erased trainee's entries (no personal value in them) and has none for the erasure.
    const feedAfter = (await api.request('GET', '/api/v2026.1/changes?limit=100', token)).body.data;
    expect(feedAfter.map((c: { type: string }) => c.type)).toEqual(feedBefore.map((c: { type: string }) => c.type));
    // Every entry of the erased trainee by one rule (docs/change-feed.md "An erased trainee's changes").
    type Entry = { trainee_id: string; cursor: string; changed_fields: string[]; trn: string | null };
    const personal = new Set([...FLAGGED_PERSONAL_FIELDS.trainee, ...FLAGGED_PERSONAL_FIELDS.degree]);
    const ofErased = (feed: Entry[]) => feed.filter((c) => c.trainee_id === erasedId);
    expect(ofErased(feedAfter).map((c) => c.cursor)).toEqual(ofErased(feedBefore).map((c) => c.cursor));
    expect(ofErased(feedBefore)[0].changed_fields).toEqual(expect.arrayContaining(['first_names', 'last_name', 'training_route']));
    for (const entry of ofErased(feedAfter)) {
      expect(entry.trn).toBeNull();
      expect(entry.changed_fields.filter((f) => personal.has(f) || /^disability\d+$/.test(f))).toEqual([]);
    }
    expect(ofErased(feedAfter)[0].changed_fields).toContain('training_route');

    const history = await admin.run(['trainee', 'history', erasedId, '--json'], api.dataDir);
    expect(history.code).toBe(0);
    const entries = history.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    const earlier = before.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(entries.map((e) => e.event_type)).toEqual([...earlier.map((e) => e.event_type), 'TraineeErased']);
    expect(entries.slice(0, -1).map((e) => e.changed_fields)).toEqual(earlier.map((e) => e.changed_fields));
    expect(entries[0].changes).toMatchObject({ first_names: '[erased]', last_name: '[erased]', email: '[erased]', ni_number: '[erased]' });
    expect(entries[0].changes.training_route).toBe(earlier[0].changes.training_route);
    expect(entries[entries.length - 1].changes).toEqual({ reason: 'Request DPO-2026-17', erased_by: 'data.protection' });
    expect(history.stdout).not.toMatch(/Ottoline|Brackenridge|Wilhelmina|Portmeirion/);

    const again = await admin.run(['trainee', 'erase', erasedId, '--reason', 'again'], api.dataDir);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^Already erased: trainee/);
    const unknown = await admin.run(['trainee', 'erase', 'no-such-trainee', '--reason', 'x'], api.dataDir);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No trainee with id no-such-trainee/);
  }, 60_000);

  it('leaves no byte of the erased trainee under the data dir or in an export; the others only in the read models', async () => {
    const work = mkdtempSync(join(tmpdir(), 'erasure-export-'));
    try {
      const file = join(work, 'events.jsonl');
      expect((await admin.run(['events', 'export', '--output', file], api.dataDir)).code).toBe(0);
      const exported = readFileSync(file, 'latin1');
      const everything = allFilesText(api.dataDir);
      for (const value of [...Object.values(erasedPerson), 'Wilhelmina', 'Portmeirion']) {
        expect(everything).not.toContain(value);
        expect(exported).not.toContain(value);
      }
      for (const value of Object.values(keptPerson)) {
        expect(exported).not.toContain(value);
        expect(filesText(api.dataDir, 'events.sqlite')).not.toContain(value);
        expect(filesText(api.dataDir, 'read-models.sqlite')).toContain(value);
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 60_000);

  it('a projection rebuild gives the same answers and the same feed as the live projection after the erasure', async () => {
    const answer = (await api.request('GET', `${base}/${keptId}`, token)).body;
    const feed = (await api.request('GET', '/api/v2026.1/changes?limit=100', token)).body.data;
    const rebuilt = await admin.run(['projections', 'rebuild', 'trainees'], api.dataDir);
    expect(rebuilt.code).toBe(0);
    expect((await api.request('GET', `${base}/${keptId}`, token)).body).toEqual(answer);
    expect((await api.request('GET', `${base}/${erasedId}`, token)).status).toBe(404);
    expect((await api.request('GET', '/api/v2026.1/changes?limit=100', token)).body.data).toEqual(feed);
  }, 60_000);
});

describe('moving a log written before sealing (events export / import)', () => {
  it('seals every personal value as it imports; guards forget then deletes the plain-hash guard streams it kept', async () => {
    const [old, target, work] = ['old-log-', 'sealed-log-', 'move-'].map((p) => mkdtempSync(join(tmpdir(), p)));
    try {
      // The old log: a registration in the clear, its claim on a guard stream named by a plain SHA-256.
      const events = exampleRegistration({
        trainee_id: 'OldT1',
        ukprn: '10000134',
        details: { first_names: 'Eulalie', last_name: 'Fennimore' },
      });
      const details = (events[0].data as { details: { date_of_birth: string; training_route: string } }).details;
      const key = duplicateGuardKey('10000134', { ...details, last_name: 'Fennimore' });
      const plainGuard = REGISTRATION_GUARD_STREAM_PREFIX + createHash('sha256').update(key).digest('hex').slice(0, 40);
      // The sandbox key first, as the service makes it: never over a log that exists.
      loadServiceKey({ dataDir: old, dataKeyFile: null });
      const store = openSqliteEventStore(old);
      const ctx = { occurredAt: '2025-01-01T00:00:00.000Z' };
      await store.appendToStream(
        plainGuard,
        toEventData([{ type: 'RegistrationClaimed', data: { trainee_id: 'OldT1', at: ctx.occurredAt } }], ctx, newEventId),
      );
      await store.appendToStream(traineeStreamId('OldT1'), toEventData(events, ctx, newEventId));
      await store.close();
      expect(filesText(old, 'events.sqlite')).toContain('Fennimore');

      const file = join(work, 'events.jsonl');
      expect((await admin.run(['events', 'export', '--output', file], old)).code).toBe(0);
      copyFileSync(join(old, 'data-key'), join(target, 'data-key'));
      const imported = await admin.run(['events', 'import', file], target);
      expect(imported.stderr).toBe('');
      expect(imported.stdout).toMatch(
        /^Imported \d+ events from .*; 1 events of duplicate guard streams came with it: .* guards forget\n$/,
      );
      expect((await admin.run(['guards', 'forget'], target)).code).toBe(0);

      const sealedLog = filesText(target, 'events.sqlite');
      for (const value of ['Eulalie', 'Fennimore', plainGuard, REGISTRATION_GUARD_STREAM_PREFIX]) expect(sealedLog).not.toContain(value);
      const history = await admin.run(['trainee', 'history', 'OldT1', '--json'], target);
      expect(JSON.parse(history.stdout.split('\n')[0]).changes).toMatchObject({ first_names: 'Eulalie', last_name: 'Fennimore' });
    } finally {
      for (const dir of [old, target, work]) rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
