import { personMessage } from './row-words';
import { codeWithoutZeros, codesWithoutZeros, dayFirstDate } from './spreadsheet-values';
import { columnFactsOf } from './column-facts';

const V = 'v2026.1';

describe('values a spreadsheet changed', () => {
  it('finds the code whose leading zeros were dropped, and no other', () => {
    const grades = columnFactsOf(V, 'degree_grade')!.codes;
    expect(codeWithoutZeros('1', grades)?.code).toBe('01');
    expect(codeWithoutZeros('01', grades)).toBeUndefined();
    expect(codeWithoutZeros('0', grades)).toBeUndefined();
    expect(codeWithoutZeros('First', grades)).toBeUndefined();
    expect(codeWithoutZeros('124', columnFactsOf(V, 'degree_institution')!.codes)?.code).toBe('0124');
  });

  it('reads a day-first date, and only a real one', () => {
    expect(dayFirstDate('27/04/1998')).toBe('1998-04-27');
    expect(dayFirstDate('1/2/2001')).toBe('2001-02-01');
    expect(dayFirstDate('31/02/2001')).toBeUndefined();
    expect(dayFirstDate('1998-04-27')).toBeUndefined();
  });

  it('refuses a shortened code only where the create checks would read it silently', () => {
    expect(codesWithoutZeros({ degree_grade: '1', degree_institution: '124', study_mode: '1', degree_subject: '' }, V)).toEqual([
      {
        column: 'degree_institution',
        message: "degree_institution has invalid reference data value of '124': a spreadsheet may have dropped the leading zeros of '0124'",
        about: { kind: 'leading_zeros_dropped', value: '124', params: { list: 'degree_institution', code: '0124' } },
      },
      {
        column: 'degree_grade',
        message: "degree_grade has invalid reference data value of '1': a spreadsheet may have dropped the leading zeros of '01'",
        about: { kind: 'leading_zeros_dropped', value: '1', params: { list: 'degree_grade', code: '01' } },
      },
    ]);
  });
});

describe('personMessage', () => {
  const say = (column: string | null, message: string, about?: { kind: string; value?: string; params?: Record<string, string> }) =>
    personMessage({ column, message, ...(about ? { about } : {}) }, V);

  it('words each kind with the label, the format and an example, a code with its meaning', () => {
    expect(say('study_mode', 'x', { kind: 'isCode:study_mode', value: '1' })).toBe(
      'Study mode 1 is not a code: a spreadsheet may have removed its leading zeros. Enter 01 ' +
        '(Full-time according to funding council definitions) and format the column as text so the zeros stay',
    );
    expect(say('first_names', 'x', { kind: 'maxChars', value: 'a' })).toBe('First names must be 60 characters or fewer');
    expect(say('statsagency_id', 'x', { kind: 'lengthOneOf', value: 'a' })).toBe('Statistics agency ID must be 13 or 17 characters');
    expect(say('statsagency_id', 'x', { kind: 'lengthOneOf', value: '12' })).toBe(
      'Statistics agency ID 12 is too short: a spreadsheet may have removed its leading zeros. ' +
        'Enter all 13 or 17 characters and format the column as text so the zeros stay',
    );
    expect(say('degree_graduation_year', 'x', { kind: 'graduationYear', value: '01/06/2003' })).toBe(
      'Enter graduation year in the format YYYY, like 2003: a spreadsheet may have changed 2003-06-01 to 01/06/2003',
    );
    expect(say('degree_graduation_year', 'x', { kind: 'graduationYear', value: 'soon' })).toBe(
      'Enter graduation year in the correct format: a year in the format YYYY, like 2003',
    );
    expect(say('itt_start_date', 'x', { kind: 'isIsoDate', value: '2025/09/01' })).toBe(
      'Enter ITT start date in the format YYYY-MM-DD, for example 2025-08-01',
    );
    expect(say('sex', 'x', { kind: 'blank' })).toBe('Enter sex: a code from the column guide, for example 11');
    expect(say('course_subject_1', 'x', { kind: 'isCode:course_subject', value: '999' })).toBe(
      'Enter course subject 1 as a code from the column guide, for example 100346 (Biology): 999 is not one',
    );
    expect(say('itt_qualification_aim', 'x', { kind: 'blank_when', params: { field: 'itt_aim', code: '202' } })).toBe(
      'Enter ITT qualification aim: it is needed when ITT aim is 202',
    );
    expect(say('itt_end_date', 'x', { kind: 'date_not_after', value: '2025-01-01', params: { after: 'itt_start_date' } })).toBe(
      'ITT end date must be after ITT start date',
    );
  });

  it('falls back on the API message with the column label for its field name, and a whole-row message as it is', () => {
    expect(say('course_subject_2', 'course_subject_2 might contain duplicate values')).toBe(
      'Course subject 2 might contain duplicate values',
    );
    expect(say(null, 'This trainee is already in Register')).toBe('This trainee is already in Register');
  });

  it('says what to do with a trainee already registered, or in the file twice', () => {
    const duplicate = 'This trainee is already in Register';
    expect(say(null, duplicate, { kind: 'already_registered' })).toBe(
      'This trainee is already registered: remove their row from your file',
    );
    expect(say(null, duplicate, { kind: 'duplicate_row', params: { row: '3' } })).toBe(
      'This trainee is also in row 3 of your file: keep one of the two rows',
    );
  });
});

describe('personMessage of a recommendations file', () => {
  const say = (column: string | null, message: string, about?: { kind: string; value?: string; params?: Record<string, string> }) =>
    personMessage({ column, message, ...(about ? { about } : {}) }, V, 'recommend_for_award');

  it('words each problem with the column’s label and what to do, never a field name of the API', () => {
    const words = [
      say('trainee_id', "trainee_id can't be blank", { kind: 'blank' }),
      say('trainee_id', 'trainee_id is not a trainee of this provider', { kind: 'not_a_trainee', value: 'abc' }),
      say('trainee_id', 'trainee_id is in the file more than once', { kind: 'duplicate_row', params: { row: '2' } }),
      say('last_name', 'last_name must match the trainee record', { kind: 'does_not_match', value: 'Smith' }),
      say('qts_standards_met_date', 'qts_standards_met_date is invalid', { kind: 'isIsoDate', value: '20/07/2026' }),
      say('qts_standards_met_date', 'qts_standards_met_date must not be in the future', { kind: 'date_in_future', value: '2099-01-01' }),
      say('qts_standards_met_date', 'qts_standards_met_date must be after itt_start_date', {
        kind: 'date_before_itt_start',
        value: '2020-01-01',
        params: { itt_start_date: '2025-09-01' },
      }),
      say(null, 'degree_id must be completed before qts_standards_met_date', { kind: 'degree_missing' }),
      say(null, 'placements must be at least 2 for the provider_led_postgrad training route', {
        kind: 'too_few_placements',
        params: { minimum: '2', count: '1' },
      }),
      say(null, 'It’s not possible to perform this action while the trainee is in its current state', {
        kind: 'not_recommendable',
        params: { state: 'recommended_for_award' },
      }),
    ];
    expect(words).toEqual([
      'Enter trainee ID',
      'Trainee ID abc is not one of your trainees: copy it from your recommendations template',
      'This trainee is also in row 2 of your file: keep one of the two rows',
      'Last name does not match the trainee’s record: copy it from your recommendations template, or leave it blank',
      'Enter date QTS or EYTS standards met in the format YYYY-MM-DD, for example 2026-06-30: a spreadsheet may have changed 2026-07-20 to 20/07/2026',
      'Date QTS or EYTS standards met must be today or in the past',
      'Date QTS or EYTS standards met must not be before the trainee’s ITT start date, 2025-09-01',
      'This trainee’s training route needs a degree: add their degree before you recommend them',
      'This trainee’s training route needs at least 2 placements and their record has 1: add their placements before you recommend them',
      'This trainee cannot be recommended: they are already recommended for QTS or EYTS',
    ]);
    for (const w of words) expect(w).not.toMatch(/[a-z]+_[a-z_]+/);
  });

  it('falls back on the API message with the column’s label, as an older upload’s messages have no more', () => {
    expect(say('qts_standards_met_date', 'qts_standards_met_date must not be in the future')).toBe(
      'Date QTS or EYTS standards met must not be in the future',
    );
  });
});
