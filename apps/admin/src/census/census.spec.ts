import { mkdtempSync, rmSync } from 'node:fs';
import { fixedKeySource } from '@app/keys';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { newEventId, toEventData, type EventStore } from '@app/event-sourcing';
import { withPersonalData } from '@app/personal-data';
import { sqlitePersonalData, SqliteEventStore, type SqliteDataKeyStore } from '@app/stores/sqlite';
import { traineeStreamId, type TraineeEvent } from '@app/trainees/decider';
import { EXAMPLE_DETAILS, exampleRegistration, trnIssued } from '@app/trainees/decider/testing/trainee-events';
import { DEGREE_RECORD, PLACEMENT_RECORD, TRAINEE_RECORD } from '@app/trainees/record';
import type { TraineeReadModel } from '@app/trainees/read';
import { CENSUS_COLUMNS, writeCensus } from './census';

const UKPRN = '10000001';
const COLUMNS = CENSUS_COLUMNS.map(([name]) => name);
/** The names of the record tables' rows flagged personal (docs/DESIGN.md "Personal data"). */
const PERSONAL = [TRAINEE_RECORD, PLACEMENT_RECORD, DEGREE_RECORD]
  .flatMap((table) => table as readonly { name: string; personal?: true }[])
  .filter((row) => row.personal)
  .map((row) => row.name);

/** The census's columns (docs/operations.md "The list at an instant and the census report"; docs/DESIGN.md ruling 19). */
describe('the census columns', () => {
  it('are these, with trn and provider_trainee_id beside trainee_id', () => {
    expect(COLUMNS).toEqual([
      'trainee_id',
      'trn',
      'provider_trainee_id',
      'ukprn',
      'status',
      'state',
      'academic_cycle',
      'training_route',
      'course_qualification',
      'course_level',
      'course_education_phase',
      'course_subject_1',
      'study_mode',
      'course_year',
      'itt_aim',
      'itt_qualification_aim',
      'funding_method',
      'fund_code',
      'training_initiative',
      'additional_training_initiative',
      'itt_start_date',
      'itt_end_date',
      'trainee_start_date',
      'defer_date',
      'reinstate_date',
      'withdrawal_date',
      'awarded_at',
      'training_partner_ukprn',
      'employing_school_urn',
      'created_at',
      'updated_at',
    ]);
  });

  it('hold no personal field of the record tables but trn and provider_trainee_id', () => {
    expect(PERSONAL).toEqual(expect.arrayContaining(['first_names', 'date_of_birth', 'email', 'ethnicity', 'defer_reason']));
    expect(COLUMNS.filter((name) => PERSONAL.includes(name)).sort()).toEqual(['provider_trainee_id', 'trn']);
  });
});

describe('writeCensus on a log whose personal data is sealed', () => {
  let dir: string;
  let keyStore: SqliteDataKeyStore;
  let log: SqliteEventStore;
  let store: EventStore;
  const readModel = { providerTraineeIds: async (ukprn: string) => (ukprn === UKPRN ? ['A'] : []) } as unknown as TraineeReadModel;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'census-'));
    log = new SqliteEventStore({ filename: join(dir, 'events.sqlite'), synchronous: 'normal' });
    const sealing = sqlitePersonalData(dir, fixedKeySource(Buffer.alloc(32, 7)));
    keyStore = sealing.keyStore;
    store = withPersonalData(log, sealing.personal);
    const append = (at: string, events: TraineeEvent[], expectedRevision: number | 'no_stream') =>
      store.appendToStream(traineeStreamId('A'), toEventData(events, { occurredAt: at, providerUkprn: UKPRN }, newEventId), {
        expectedRevision,
      });
    await append('2025-09-01T10:00:00.000Z', exampleRegistration({ trainee_id: 'A', at: '2025-09-01T10:00:00.000Z' }), 'no_stream');
    await append('2025-09-08T10:00:00.000Z', [trnIssued({ trainee_id: 'A', trn: '7654321', at: '2025-09-08T10:00:00.000Z' })], 3);
  });
  afterAll(async () => {
    await log.close();
    await keyStore.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const census = async (at: string): Promise<string> => {
    let text = '';
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    expect(await writeCensus({ eventStore: store, readModel }, UKPRN, new Date(at), 'json', out)).toBe(1);
    return text;
  };

  it('writes the TRN and the provider’s own id as they stood at the instant, opened', async () => {
    expect(JSON.stringify(await log.readStream(traineeStreamId('A')))).not.toContain(EXAMPLE_DETAILS.provider_trainee_id);
    const [before] = JSON.parse(await census('2025-09-05T00:00:00Z')) as Record<string, unknown>[];
    expect(before).toMatchObject({ trainee_id: 'A', trn: null, provider_trainee_id: EXAMPLE_DETAILS.provider_trainee_id, ukprn: UKPRN });
    const [after] = JSON.parse(await census('2025-09-10T00:00:00Z')) as Record<string, unknown>[];
    expect(after).toMatchObject({ trainee_id: 'A', trn: '7654321', provider_trainee_id: EXAMPLE_DETAILS.provider_trainee_id });
  });

  it('writes no other personal value of the trainee', async () => {
    const text = await census('2025-09-10T00:00:00Z');
    const values = PERSONAL.filter((name) => !['trn', 'provider_trainee_id'].includes(name))
      .map((name) => (EXAMPLE_DETAILS as unknown as Record<string, unknown>)[name])
      .filter((value): value is string | number => (typeof value === 'string' && value.length > 3) || typeof value === 'number')
      .map(String);
    expect(values).toEqual(expect.arrayContaining(['John', 'Smith', '1990-01-01', 'john.doe@example.com', '0310261553101']));
    for (const value of values) expect(text).not.toContain(value);
  });
});

describe('writeCensus in CSV', () => {
  const ids = ['F1', 'F2', 'F3'];
  const ownIds = ['=HYPERLINK("http://x")', '＝1+1', 'P-100'];
  let dir: string;
  let keyStore: SqliteDataKeyStore;
  let log: SqliteEventStore;
  let store: EventStore;
  const readModel = { providerTraineeIds: async () => ids } as unknown as TraineeReadModel;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'census-csv-'));
    log = new SqliteEventStore({ filename: join(dir, 'events.sqlite'), synchronous: 'normal' });
    const sealing = sqlitePersonalData(dir, fixedKeySource(Buffer.alloc(32, 7)));
    keyStore = sealing.keyStore;
    store = withPersonalData(log, sealing.personal);
    for (const [i, trainee_id] of ids.entries()) {
      const at = '2025-09-01T10:00:00.000Z';
      const events = exampleRegistration({ trainee_id, at, details: { provider_trainee_id: ownIds[i] } });
      await store.appendToStream(traineeStreamId(trainee_id), toEventData(events, { occurredAt: at, providerUkprn: UKPRN }, newEventId), {
        expectedRevision: 'no_stream',
      });
    }
  });
  afterAll(async () => {
    await log.close();
    await keyStore.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes a provider’s own id a spreadsheet would run as a formula after a quote, in any of its forms', async () => {
    let text = '';
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    expect(await writeCensus({ eventStore: store, readModel }, UKPRN, new Date('2025-09-05T00:00:00Z'), 'csv', out)).toBe(3);
    const [header, ...rows] = parse(text) as string[][];
    expect(header).toEqual(COLUMNS);
    const own = COLUMNS.indexOf('provider_trainee_id');
    expect(rows.map((r) => [r[0], r[own]])).toEqual([
      ['F1', '\'=HYPERLINK("http://x")'],
      ['F2', "'＝1+1"],
      ['F3', 'P-100'],
    ]);
    expect(text.split('\r\n')[1]).toMatch(/^F1,[^,]*,"'=HYPERLINK\(""http:\/\/x""\)",10000001,/);
  });
});
