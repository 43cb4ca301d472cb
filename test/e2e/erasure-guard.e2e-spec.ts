/**
 * An erased trainee leaves nothing the duplicate rule's guard could give back (docs/DESIGN.md
 * "Personal data", property 3): after `admin trainee erase`, someone holding the service key, every
 * file of the data directory (the log, the key store, the read store, their WAL files) and an
 * `events export` computes the reservation name (and the plain-hash guard stream name of older
 * logs) of every date of birth in sixty years with the trainee's last name, route and UKPRN, and
 * finds none of them, nor the date of birth or the last name in the clear; the same search finds
 * the trainee before its erasure and a living trainee after it. The same details then register
 * again (201): the erased trainee is no duplicate of anyone. And `admin guards forget` deletes the
 * guard streams an older log holds, in place.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newEventId, toEventData } from '@app/event-sourcing';
import { duplicateGuardKey, REGISTRATION_GUARD_STREAM_PREFIX, traineeStreamId } from '@app/trainees/decider';
import { exampleRegistration } from '@app/trainees/decider/testing/trainee-events';
import { openSqliteEventStore } from '@app/stores/sqlite';
import { keyedGuardNames } from '@app/trainees/write';
import { deriveKey, loadServiceKey, type ServiceKeyring } from '@app/runtime/process';
import { SERVICE_KEY } from '../../apps/api/src/composition/tokens';
import { AdminWorker } from '../support/admin-cli';
import { allFilesText, filesText } from '../support/data-dir-files';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';

const UKPRN = '10000141';
const base = '/api/v2026.1/trainees';

/** Every day from 1 January 1950 to 31 December 2009 (sixty years), as `YYYY-MM-DD`. */
function sixtyYearsOfBirthDates(): string[] {
  const days: string[] = [];
  for (let t = Date.UTC(1950, 0, 1); t <= Date.UTC(2009, 11, 31); t += 86_400_000) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/** Every 40-character window of every run of at least 40 lower-case hex digits in `text`: where a guard name could sit. */
function hexWindows(text: string): Set<string> {
  const windows = new Set<string>();
  for (const run of text.match(/[0-9a-f]{40,}/g) ?? []) for (let i = 0; i + 40 <= run.length; i++) windows.add(run.slice(i, i + 40));
  return windows;
}

/**
 * The dates of birth whose guard name, keyed (`keyed`) or a plain SHA-256 (older logs), `windows`
 * holds, for a trainee of `ukprn` with this route and last name.
 */
function birthDatesFound(windows: Set<string>, keyed: (guardKey: string) => string, who: { route: string; lastName: string }): string[] {
  return sixtyYearsOfBirthDates().filter((date_of_birth) => {
    const key = duplicateGuardKey(UKPRN, { date_of_birth, training_route: who.route, last_name: who.lastName });
    return windows.has(keyed(key)) || windows.has(createHash('sha256').update(key).digest('hex').slice(0, 40));
  });
}

/**
 * The admin CLI loaded once in a process of its own, for commands run again here; the first run of
 * each command, and the runs about the program itself, start it as operators do.
 */
const admin = AdminWorker.forFile();

describe('an erased trainee and the duplicate guard', () => {
  let api: RunningApi;
  let token: string;
  let work: string;

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken(UKPRN);
    work = mkdtempSync(join(tmpdir(), 'erasure-guard-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('leaves no guard name, date of birth or last name of the erased trainee in the files or an export; the same details register again', async () => {
    const erased = uniqueTrainee('v2026.1', { last_name: 'Vellacott-Quarrie', date_of_birth: '1987-02-19' });
    const living = uniqueTrainee('v2026.1', { last_name: 'Pennyfeather-Oakes', date_of_birth: '1979-10-07' });
    const created = await api.request('POST', base, token, erased);
    expect(created.status).toBe(201);
    expect((await api.request('POST', base, token, living)).status).toBe(201);
    const erasedId = created.body.data.trainee_id;
    const route = created.body.data.training_route as string;
    const keyed = keyedGuardNames(deriveKey(api.app.get<ServiceKeyring>(SERVICE_KEY), 'registration-guards'));
    const erasedWho = { route, lastName: 'Vellacott-Quarrie' };
    const livingWho = { route: living.data.training_route as string, lastName: 'Pennyfeather-Oakes' };

    // The search can match: before the erasure it finds the trainee's date of birth from its guard name.
    expect(birthDatesFound(hexWindows(allFilesText(api.dataDir)), keyed, erasedWho)).toEqual(['1987-02-19']);

    const erasure = await admin.run(['trainee', 'erase', erasedId, '--reason', 'Retention policy'], api.dataDir);
    expect(erasure.code).toBe(0);
    const file = join(work, 'events.jsonl');
    expect((await admin.run(['events', 'export', '--output', file], api.dataDir)).code).toBe(0);
    const everything = `${allFilesText(api.dataDir)}\n${readFileSync(file, 'latin1')}`;

    const windows = hexWindows(everything);
    expect(birthDatesFound(windows, keyed, erasedWho)).toEqual([]);
    for (const clear of ['1987-02-19', 'Vellacott-Quarrie', 'vellacott-quarrie']) expect(everything).not.toContain(clear);
    // And after it, the same search still finds a living trainee's.
    expect(birthDatesFound(windows, keyed, livingWho)).toEqual(['1979-10-07']);

    // A returning trainee with the erased one's details is no duplicate of it.
    const again = await api.request('POST', base, token, erased);
    expect(again.status).toBe(201);
    expect(again.body.data.trainee_id).not.toBe(erasedId);
    expect((await api.request('POST', base, token, erased)).status).toBe(409);
  }, 120_000);
});

describe('admin guards forget (an older log)', () => {
  it('deletes the guard streams, plain and keyed, from the log and the kept digest tree; every chain still holds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'old-guards-'));
    try {
      // An older log: a registration, its claim on a plain-hash guard stream and on a keyed one (two builds' names).
      const events = exampleRegistration({ trainee_id: 'OldG1', ukprn: UKPRN, details: { last_name: 'Fairweather-Lusk' } });
      const details = (events[0].data as { details: { date_of_birth: string; training_route: string } }).details;
      const key = duplicateGuardKey(UKPRN, { ...details, last_name: 'Fairweather-Lusk' });
      const plain = REGISTRATION_GUARD_STREAM_PREFIX + createHash('sha256').update(key).digest('hex').slice(0, 40);
      const keyed = REGISTRATION_GUARD_STREAM_PREFIX + keyedGuardNames(Buffer.alloc(32, 9))(key);
      // The sandbox key first, as the service makes it: never over a log that exists.
      loadServiceKey({ dataDir: dir, dataKeyFile: null });
      const store = openSqliteEventStore(dir);
      const ctx = { occurredAt: '2024-05-01T00:00:00.000Z' };
      for (const guard of [plain, keyed])
        await store.appendToStream(
          guard,
          toEventData([{ type: 'RegistrationClaimed', data: { trainee_id: 'OldG1', at: ctx.occurredAt } }], ctx, newEventId),
        );
      await store.appendToStream(traineeStreamId('OldG1'), toEventData(events, ctx, newEventId));
      await store.close();
      const digestFile = `${dir}-digest.json`;
      const signed = await admin.run(['audit', 'digest', '--output', digestFile], dir);
      expect(signed.code).toBe(0);
      const names = [plain, keyed].map((g) => g.slice(REGISTRATION_GUARD_STREAM_PREFIX.length));
      for (const name of names) expect(allFilesText(dir)).toContain(name);

      const forgot = await admin.run(['guards', 'forget'], dir);
      expect(forgot.stderr).toBe('');
      expect(forgot.code).toBe(0);
      expect(forgot.stdout).toBe('Deleted 2 guard streams (2 events) from the log and 2 of their heads from the kept digest tree\n');
      const everything = allFilesText(dir);
      for (const name of [...names, REGISTRATION_GUARD_STREAM_PREFIX]) expect(everything).not.toContain(name);
      expect(filesText(dir, 'events.sqlite')).toContain('OldG1');
      const verified = await admin.run(['audit', 'verify'], dir);
      expect(verified.code).toBe(0);
      expect(verified.stdout).toMatch(/: every chain holds\n$/);
      // A digest signed before covered the guard streams' heads: held to it, they are missing (docs/operations.md).
      const held = await admin.run(['audit', 'verify', '--json', '--digest', digestFile], dir);
      expect(held.code).toBe(1);
      const faults = (JSON.parse(held.stdout) as { faults: { stream_id: string; kind: string }[] }).faults;
      expect(faults.map((f) => [f.stream_id, f.kind]).sort()).toEqual([plain, keyed].sort().map((g) => [g, 'missing']));
      // The log stays append-only, and a second run finds nothing.
      const again = await admin.run(['guards', 'forget'], dir);
      expect(again.stdout).toBe('Deleted 0 guard streams (0 events) from the log and 0 of their heads from the kept digest tree\n');
      const db = new Database(join(dir, 'events.sqlite'));
      try {
        expect(() => db.prepare('DELETE FROM events').run()).toThrow(/append-only/);
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(`${dir}-digest.json`, { force: true });
    }
  }, 120_000);
});
