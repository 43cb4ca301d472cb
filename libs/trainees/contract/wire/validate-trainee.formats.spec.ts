import { isValidEmailFormat } from './constraints';
import { detailsOf, errorsOf } from '../testing/trainee-create';
import { BOTH } from '../testing/trainee-payload';

/**
 * Lengths, formats and dates of a trainee create body, through the checks the API runs.
 */

describe('lengths and formats (docs/reference/API-FACTS.md §6.4)', () => {
  describe.each(BOTH)('%s', (version) => {
    it.each([
      ['first_names', 60],
      ['last_name', 60],
      ['middle_names', 60],
      ['provider_trainee_id', 50],
    ])('%s has at most %i characters', (field, max) => {
      expect(errorsOf(version, { [field]: 'x'.repeat(max) })).toEqual([]);
      expect(errorsOf(version, { [field]: 'x'.repeat(max + 1) })).toEqual([`${field} is too long (maximum is ${max} characters)`]);
    });

    it('counts characters, not UTF-16 units', () => {
      expect(errorsOf(version, { first_names: '😀'.repeat(60) })).toEqual([]);
    });

    it('email has at most 255 characters', () => {
      const long = `${'a'.repeat(244)}@example.com`;
      expect(long).toHaveLength(256);
      expect(errorsOf(version, { email: long })).toEqual(['email is too long (maximum is 255 characters)']);
      expect(errorsOf(version, { email: long.slice(1) })).toEqual([]);
    });

    it('email has the right format', () => {
      expect(errorsOf(version, { email: 'ada' })).toEqual(['email Enter an email address in the correct format, like name@example.com']);
    });

    it('statsagency_id has exactly 13 or 17 characters', () => {
      expect(errorsOf(version, { statsagency_id: '1'.repeat(17) })).toEqual([]);
      for (const n of [1, 12, 14, 16, 18]) {
        expect(errorsOf(version, { statsagency_id: '1'.repeat(n) })).toEqual(['statsagency_id must be 13 or 17 characters']);
      }
    });

    it('application_id has at most 7 characters and is stored as an integer', () => {
      expect(detailsOf(version, { application_id: 1234567 }).application_id).toBe(1234567);
      expect(detailsOf(version, { application_id: '0012345' }).application_id).toBe(12345);
      expect(detailsOf(version, { application_id: null }).application_id).toBeNull();
      expect(errorsOf(version, { application_id: 12345678 })).toEqual(['application_id is too long (maximum is 7 characters)']);
      expect(errorsOf(version, { application_id: '12345678' })).toEqual(['application_id is too long (maximum is 7 characters)']);
      expect(errorsOf(version, { application_id: 'abc' })).toEqual(['application_id is invalid']);
      expect(errorsOf(version, { application_id: 1.5 })).toEqual(['application_id is invalid']);
      expect(errorsOf(version, { application_id: {} })).toEqual([]);
      expect(errorsOf(version, { application_id: [1] })).toEqual(['application_id is invalid']);
    });

    it('does not validate pg_apprenticeship_start_date; bounds ni_number and previous_last_name (docs/DESIGN.md ruling 14)', () => {
      const d = detailsOf(version, { previous_last_name: 'y'.repeat(255), pg_apprenticeship_start_date: 'soon' });
      expect(d.previous_last_name).toHaveLength(255);
      expect(d.pg_apprenticeship_start_date).toBeNull();
      expect(errorsOf(version, { ni_number: '?'.repeat(300), previous_last_name: 'y'.repeat(256) })).toEqual([
        'previous_last_name is too long (maximum is 255 characters)',
        'ni_number is invalid',
      ]);
      expect(detailsOf(version, { pg_apprenticeship_start_date: '20240311' }).pg_apprenticeship_start_date).toBe('2024-03-11');
    });
  });

  it('v2026.1 course_year must be an integer; v2025.0 checks presence only', () => {
    const invalid = ['course_year is not a valid course year'];
    expect(detailsOf('v2026.1', { course_year: 2026 }).course_year).toBe(2026);
    expect(detailsOf('v2026.1', { course_year: '2026' }).course_year).toBe(2026);
    expect(errorsOf('v2026.1', { course_year: '2026a' })).toEqual(invalid);
    expect(errorsOf('v2026.1', { course_year: 2026.5 })).toEqual(invalid);
    expect(errorsOf('v2026.1', { course_year: '-1' })).toEqual(invalid);
    expect(errorsOf('v2026.1', { course_year: ['2026'] })).toEqual(invalid);
    expect(detailsOf('v2025.0', { course_year: '2026' }).course_year).toBe(2026);
    expect(detailsOf('v2025.0', { course_year: '2026a' }).course_year).toBe('2026a');
    expect(detailsOf('v2025.0', { course_year: 2026.5 }).course_year).toBe(2026.5);
    expect(errorsOf('v2025.0', { course_year: { y: 1 } })).toEqual(invalid);
  });
});

describe('email format rule (docs/reference/API-FACTS.md §6.4)', () => {
  it.each([
    'name@example.com',
    'a.b+c@sub.example.co.uk',
    "o'brien@example.com",
    "!#$%&'*+/=?^_`{|}~-@example.com",
    'x@xn--bcher-kva.example',
    'x@example.xn--p1ai',
    'x@my-host.example.com',
    'name@EXAMPLE.COM',
  ])('accepts %s', (email) => {
    expect(isValidEmailFormat(email)).toBe(true);
  });

  it.each([
    'name',
    'name@example',
    'name@@example.com',
    'na..me@example.com',
    'name@example..com',
    'name@-example.com',
    'name@example-.com',
    'name@exa--mple.com',
    'name@example.c',
    'name@example.c0m',
    'name@exa_mple.com',
    'name @example.com',
    '"quoted"@example.com',
    'name@example.com.',
    '@example.com',
    `name@${'a'.repeat(64)}.com`,
    `name@${'abcdefghi.'.repeat(26)}com`,
    `${'a'.repeat(310)}@example.com`,
  ])('rejects %s', (email) => {
    expect(isValidEmailFormat(email)).toBe(false);
  });
});

describe('dates (docs/reference/API-FACTS.md §6.5)', () => {
  describe.each(BOTH)('%s', (version) => {
    it.each([
      ['x', ['date_of_birth is invalid']],
      ['2001-02-30', ['date_of_birth is invalid']],
      ['1926-11-21', ['date_of_birth is invalid']],
      ['1926-11-22', []],
      ['2026-11-23', ['date_of_birth must be in the past']],
      ['2010-11-23', ['date_of_birth cannot be less than 16 years ago']],
      ['2010-11-22', []],
      ['19900501', []],
      ['1990-121', []],
      ['1990-W18-2', []],
    ])('date_of_birth %s', (value, expected) => {
      expect(errorsOf(version, { date_of_birth: value })).toEqual(expected);
    });

    it('normalises accepted date forms to YYYY-MM-DD', () => {
      expect(detailsOf(version, { date_of_birth: '1990-121' }).date_of_birth).toBe('1990-05-01');
      expect(detailsOf(version, { date_of_birth: '1990-W18-2' }).date_of_birth).toBe('1990-05-01');
      expect(detailsOf(version, { itt_start_date: '20260901' }).itt_start_date).toBe('2026-09-01');
    });

    it('trainee_start_date defaults to itt_start_date', () => {
      expect(detailsOf(version).trainee_start_date).toBe('2026-09-01');
      expect(detailsOf(version, { trainee_start_date: '' }).trainee_start_date).toBe('2026-09-01');
      expect(detailsOf(version, { trainee_start_date: '2026-10-01' }).trainee_start_date).toBe('2026-10-01');
    });

    it.each([
      [{ trainee_start_date: 'soon' }, ['trainee_start_date is invalid']],
      [{ trainee_start_date: '2016-11-21' }, ['trainee_start_date Cannot be more than 10 years in the past']],
      [{ trainee_start_date: '2016-11-22' }, []],
      [{ trainee_start_date: '2026-12-01' }, ['trainee_start_date must be in the past']],
      [{ itt_start_date: '2027-01-10', trainee_start_date: '2027-01-10' }, []],
      [
        { itt_start_date: '2016-09-01', itt_end_date: '2017-07-31', trainee_start_date: undefined },
        ['trainee_start_date Cannot be more than 10 years in the past'],
      ],
    ])('trainee_start_date %j', (over, expected) => {
      expect(errorsOf(version, over)).toEqual(expected);
    });

    it.each([
      [{ itt_start_date: 'x' }, ['itt_start_date is invalid']],
      [{ itt_start_date: '2026-02-30' }, ['itt_start_date is invalid']],
      [{ itt_start_date: '2028-01-01' }, ['itt_start_date must not be more than one year in the future']],
      [{ itt_start_date: '2027-12-31' }, []],
      [{ itt_end_date: 'x' }, ['itt_end_date is invalid']],
      [{ itt_end_date: '2026-08-31' }, ['itt_end_date must be after itt_start_date']],
      [{ itt_end_date: '2026-09-01' }, ['itt_end_date must be after itt_start_date']],
      [{ itt_end_date: '2026-09-02' }, []],
    ])('itt dates %j', (over, expected) => {
      expect(errorsOf(version, over)).toEqual(expected);
    });
  });

  it('v2026.1 keeps itt_end_date within the next 5 and the last 10 years; v2025.0 does not', () => {
    expect(errorsOf('v2026.1', { itt_end_date: '2031-12-31' })).toEqual([]);
    expect(errorsOf('v2026.1', { itt_end_date: '2032-01-01' })).toEqual(['itt_end_date must be within the next 5 years']);
    expect(errorsOf('v2025.0', { itt_end_date: '2032-01-01' })).toEqual([]);
    const old = { itt_start_date: '2015-09-01', trainee_start_date: '2016-12-01', itt_end_date: '2016-11-21' };
    expect(errorsOf('v2026.1', old)).toEqual(['itt_end_date must be within the last 10 years']);
    expect(errorsOf('v2025.0', old)).toEqual([]);
    // At most one of the three comparisons, +5 years first.
    expect(errorsOf('v2026.1', { itt_start_date: '2027-09-01', trainee_start_date: '2026-09-01', itt_end_date: '2032-01-01' })).toEqual([
      'itt_end_date must be within the next 5 years',
    ]);
  });
});
