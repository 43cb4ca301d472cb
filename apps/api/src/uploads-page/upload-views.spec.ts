import type { RowError } from '@app/uploads/decider';
import type { RowPerson, UploadAnswer } from '@app/uploads/write';
import { framedPage } from './layout';
import { ADD_TRAINEES, RECOMMENDATIONS } from './upload-journeys';
import { rowGroups, rowRange, uploadPage } from './upload-views';

const holder = { csrfToken: 'csrf', provider: 'UKPRN 10000001' };
const REGISTERED = 'This trainee is already in Register';

function answer(status: string, rowCount: number, errors: RowError[] = []): UploadAnswer {
  return {
    upload_id: 'up1',
    status,
    api_version: 'v2026.1',
    row_count: rowCount,
    error_count: errors.length,
    errors,
    rows: [],
    received_at: '2026-12-07T10:00:00.000Z',
    checked_at: '2026-12-07T10:00:01.000Z',
    submitted_at: null,
    ended_at: null,
  };
}

const people = (rows: number[]): RowPerson[] =>
  rows.map((row) => ({ row, first_names: `First${row}`, last_name: `Last${row}`, provider_trainee_id: `P/${row}` }));
const rows = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const registered = (row: number): RowError => ({ row, column: null, message: REGISTERED, about: { kind: 'already_registered' } });

/** The summary list's rows as [key, value], spaces folded. */
function summary(text: string): [string, string][] {
  const list = /<dl class="govuk-summary-list" id="file-summary">([\s\S]*?)<\/dl>/.exec(text)?.[1] ?? '';
  return [
    ...list.matchAll(/<dt class="govuk-summary-list__key">([\s\S]*?)<\/dt>\s*<dd class="govuk-summary-list__value">([\s\S]*?)<\/dd>/g),
  ].map((m): [string, string] => [m[1].trim(), m[2].replace(/\s+/g, ' ').trim()]);
}
const h1 = (text: string) => /<h1 class="govuk-heading-l">([^<]*)<\/h1>/.exec(text)?.[1];

describe('rowRange', () => {
  it('says rows in few words: runs of three or more by their ends', () => {
    expect(rowRange([7])).toBe('row 7');
    expect(rowRange([2, 3])).toBe('rows 2 and 3');
    expect(rowRange(rows(2, 21))).toBe('rows 2 to 21');
    expect(rowRange([2, 3, 4, 7, 9, 10])).toBe('rows 2 to 4, 7, 9 and 10');
    expect(rowRange([])).toBe('');
  });
});

describe('rowGroups', () => {
  it('puts a row of a trainee already registered in its own group, whatever else is said of it; other rows with messages as errors', () => {
    const errors: RowError[] = [
      { row: 3, column: 'sex', message: 'sex is wrong' },
      { row: 4, column: 'degree_grade', message: 'degree_grade is wrong', about: { kind: 'leading_zeros_dropped' } },
      registered(4),
      { row: 5, column: null, message: REGISTERED },
      { row: 6, column: null, message: REGISTERED, about: { kind: 'duplicate_row', params: { row: '2' } } },
    ];
    expect(rowGroups(rows(2, 7), errors)).toEqual({ going: [2, 7], registered: [4, 5], withErrors: [3, 6] });
  });
});

describe('uploadPage once checked', () => {
  it('validated: says how many will be added, with their rows, and names each behind a details', () => {
    const text = uploadPage(answer('validated', 3), holder, ADD_TRAINEES, { people: people([2, 3, 4]) });
    expect(h1(text)).toBe('3 trainees will be added');
    expect(summary(text)).toEqual([
      ['Will be added', '3 trainees: rows 2 to 4'],
      ['Already registered', 'None'],
      ['Has errors', 'None'],
    ]);
    expect(text).toMatch(/<details class="govuk-details" id="going">[\s\S]*See the 3 trainees who will be added/);
    expect(text).toMatch(/Row 3<\/dt>\s*<dd class="govuk-summary-list__value">First3 Last3<br \/><span[^>]*>Provider trainee ID: P\/3</);
    expect(text).toContain('action="/uploads/files/up1/submit"');
  });

  it('the same file twice: says plainly that every trainee is already registered, names each once, and no error card', () => {
    const errors = rows(2, 21).map(registered);
    const text = uploadPage(answer('failed', 20, errors), holder, ADD_TRAINEES, { rowErrors: errors, people: people(rows(2, 21)) });
    expect(h1(text)).toBe('All 20 trainees in your file are already registered');
    expect(text).toContain('There is nothing to add from this file, so you do not need to upload it again.');
    expect(summary(text)).toEqual([
      ['Will be added', 'None'],
      ['Already registered', '20 trainees: rows 2 to 21'],
      ['Has errors', 'None'],
    ]);
    expect(text.match(/already in Register/g)).toHaveLength(1);
    expect(text).not.toMatch(/govuk-summary-card__title">Row |Errors by row|govuk-tag--red|errors\.csv/);
    for (const row of rows(2, 21)) expect(text).toContain(`First${row} Last${row}`);
    expect(text).toContain('Upload another file');
  });

  it('some already registered, no errors: says to leave them out to add the others', () => {
    const errors = [registered(3)];
    const text = uploadPage(answer('failed', 3, errors), holder, ADD_TRAINEES, { rowErrors: errors, people: people([2, 3, 4]) });
    expect(h1(text)).toBe('Some trainees in your file are already registered');
    expect(text).toContain(
      '1 trainee in your file is already in Register. Leave its row out of your file and upload it again to add the other 2 trainees.',
    );
    expect(summary(text)).toEqual([
      ['Will be added', '2 trainees: rows 2 and 4'],
      ['Already registered', '1 trainee: row 3'],
      ['Has errors', 'None'],
    ]);
  });

  it('errors and trainees already registered: the errors by row, the registered named apart, never among the errors', () => {
    const errors: RowError[] = [{ row: 2, column: 'sex', message: "sex can't be blank", about: { kind: 'blank' } }, registered(4)];
    const text = uploadPage(answer('failed', 3, errors), holder, ADD_TRAINEES, { rowErrors: errors, people: people([2, 3, 4]) });
    expect(h1(text)).toBe('Fix the errors in your file');
    expect(summary(text)).toEqual([
      ['Will be added', '1 trainee: row 3'],
      ['Already registered', '1 trainee: row 4'],
      ['Has errors', '1 row: row 2'],
    ]);
    expect([...text.matchAll(/govuk-summary-card__title">Row (\d+)</g)].map((m) => m[1])).toEqual(['2']);
    expect(text).toMatch(/id="already-registered"[\s\S]*Row 4<\/dt>\s*<dd class="govuk-summary-list__value">First4 Last4/);
  });

  it('a recommendations file: its own words and paths, and no registered group', () => {
    const text = uploadPage(answer('validated', 2), holder, RECOMMENDATIONS, { people: people([2, 3]) });
    expect(h1(text)).toBe('2 trainees will be recommended');
    expect(summary(text)).toEqual([
      ['Will be recommended', '2 trainees: rows 2 and 3'],
      ['Has errors', 'None'],
    ]);
    expect(text).toContain('action="/uploads/recommendations/files/up1/submit"');
    expect(text).toContain('Submit recommendations');
  });

  it('a viewer: the summary, no form', () => {
    const text = framedPage(
      uploadPage(answer('validated', 1), { ...holder, viewOnly: true }, ADD_TRAINEES, { people: people([2]) }),
      false,
    );
    expect(summary(text)[0]).toEqual(['Will be added', '1 trainee: row 2']);
    expect(text).not.toMatch(/action="\/uploads\/files/);
    expect(text).toContain('Your role lets you see your provider’s uploads only.');
  });
});
