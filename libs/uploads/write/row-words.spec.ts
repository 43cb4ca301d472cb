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
});
