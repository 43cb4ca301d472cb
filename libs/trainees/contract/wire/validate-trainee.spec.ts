import type { TraineeDetails } from '@app/trainees/record';
import type { ApiVersion } from '@app/trainees/record';
import { isValidEmailFormat } from './constraints';
import { DEGREES_ATTRIBUTES_MAX_ITEMS, PLACEMENTS_ATTRIBUTES_MAX_ITEMS } from '@app/trainees/record';
import { validateNewTrainee } from './validate';
import { BOTH, payload, TODAY } from '../testing/trainee-payload';

const DEGREE = { grade: '02', subject: '100425', institution: '0116', uk_degree: '083', graduation_year: '2003' };
/** Overrides for a postgraduate route that needs a degree. */
const POSTGRAD = (route: string): Record<string, unknown> => ({ training_route: route, degrees_attributes: [DEGREE] });

function errorsOf(version: ApiVersion, over: Record<string, unknown> = {}): string[] {
  const result = validateNewTrainee(payload(version, over), { version, today: TODAY });
  return result.ok ? [] : result.errors;
}

function detailsOf(version: ApiVersion, over: Record<string, unknown> = {}): TraineeDetails {
  const result = validateNewTrainee(payload(version, over), { version, today: TODAY });
  if (!result.ok) throw new Error(`expected valid, got ${JSON.stringify(result.errors)}`);
  return result.value.details;
}

const s1 = (v: ApiVersion): string => (v === 'v2025.0' ? 'course_subject_one' : 'course_subject_1');
const s2 = (v: ApiVersion): string => (v === 'v2025.0' ? 'course_subject_two' : 'course_subject_2');
const s3 = (v: ApiVersion): string => (v === 'v2025.0' ? 'course_subject_three' : 'course_subject_3');

describe('validateNewTrainee: the base payload', () => {
  it.each(BOTH)('is valid in %s', (version) => {
    expect(errorsOf(version)).toEqual([]);
  });

  it('rejects a missing, empty or non-object data', () => {
    const message = ['Param is missing or the value is empty or invalid: data'];
    expect(validateNewTrainee({}, { version: 'v2026.1', today: TODAY })).toEqual({ ok: false, errors: message });
    expect(validateNewTrainee(null as unknown as Record<string, unknown>, { version: 'v2026.1', today: TODAY })).toEqual({
      ok: false,
      errors: message,
    });
    expect(validateNewTrainee([] as unknown as Record<string, unknown>, { version: 'v2026.1', today: TODAY })).toEqual({
      ok: false,
      errors: message,
    });
  });
});

describe('required fields (docs/reference/API-FACTS.md §6.3)', () => {
  const cases: [string, (v: ApiVersion) => string[]][] = [
    ['first_names', () => ["first_names can't be blank"]],
    ['last_name', () => ["last_name can't be blank"]],
    ['date_of_birth', () => ["date_of_birth can't be blank"]],
    ['sex', () => ["sex can't be blank"]],
    ['training_route', () => ["training_route can't be blank"]],
    ['itt_start_date', () => ["itt_start_date can't be blank"]],
    ['itt_end_date', () => ["itt_end_date can't be blank"]],
    ['statsagency_id', () => ["statsagency_id can't be blank"]],
    ['email', () => ["email can't be blank"]],
    ['course_subject_1', (v) => [`${s1(v)} can't be blank`]],
    ['study_mode', () => ["study_mode can't be blank"]],
    ['itt_aim', () => ["itt_aim can't be blank", 'itt_qualification_aim must be entered if 202 selected for itt_aim']],
    ['course_year', () => ["course_year can't be blank"]],
    ['course_age_range', () => ["course_age_range can't be blank"]],
    ['fund_code', () => ["fund_code can't be blank"]],
    ['funding_method', () => ["funding_method can't be blank"]],
  ];
  describe.each(BOTH)('%s', (version) => {
    it.each(cases)('%s missing, null, "" or blank', (field, expected) => {
      for (const blank of [undefined, null, '', '   ']) {
        expect(errorsOf(version, { [field]: blank })).toEqual(expected(version));
      }
    });

    it('itt_qualification_aim is required when itt_aim is 202', () => {
      expect(errorsOf(version, { itt_aim: '202' })).toEqual(['itt_qualification_aim must be entered if 202 selected for itt_aim']);
      expect(detailsOf(version, { itt_aim: '202', itt_qualification_aim: '001' }).itt_qualification_aim).toBe('001');
    });

    it('degrees_attributes is required for a route that needs a degree', () => {
      expect(errorsOf(version, { training_route: '12' })).toEqual([
        'degrees_attributes must be entered if specifying a postgraduate training_route',
      ]);
      expect(errorsOf(version, { training_route: '12', degrees_attributes: [] })).toEqual([
        'degrees_attributes must be entered if specifying a postgraduate training_route',
      ]);
      expect(errorsOf(version, POSTGRAD('12'))).toEqual([]);
      expect(errorsOf(version, { training_route: '09' })).toEqual([]);
    });
  });

  it('study_mode is optional for routes 16 and 17 in v2026.1 only', () => {
    expect(errorsOf('v2026.1', { ...POSTGRAD('16'), study_mode: undefined })).toEqual([]);
    expect(detailsOf('v2026.1', { ...POSTGRAD('16'), study_mode: undefined }).study_mode).toBeNull();
    expect(
      errorsOf('v2026.1', { ...POSTGRAD('17'), study_mode: undefined, course_subject_1: '100510', course_age_range: '13920' }),
    ).toEqual([]);
    expect(errorsOf('v2026.1', { ...POSTGRAD('12'), study_mode: undefined })).toEqual(["study_mode can't be blank"]);
  });

  it('iqts_country is required for route 15 in v2026.1 and checked against the country codes', () => {
    expect(errorsOf('v2026.1', POSTGRAD('15'))).toEqual(["iqts_country can't be blank"]);
    expect(errorsOf('v2026.1', { ...POSTGRAD('15'), iqts_country: 'QQ' })).toEqual([
      "iqts_country has invalid reference data value of 'QQ'. Example values include 'AD', 'AE', 'AF', 'AG', 'AI', 'AL', 'AM', 'AO', 'AR', 'AS'...",
    ]);
    expect(detailsOf('v2026.1', { ...POSTGRAD('15'), iqts_country: 'LS' }).iqts_country).toBe('LS');
    expect(errorsOf('v2026.1', { training_route: '15' })).toEqual([
      'degrees_attributes must be entered if specifying a postgraduate training_route',
      "iqts_country can't be blank",
    ]);
  });

  it('iqts_country is refused for other routes in v2026.1 (decision (b), docs/reference/API-FACTS.md §6.3) and ignored in v2025.0', () => {
    expect(errorsOf('v2026.1', { iqts_country: 'LS' })).toEqual(['iqts_country must be blank']);
    expect(errorsOf('v2026.1', { iqts_country: 'nonsense' })).toEqual([
      "iqts_country has invalid reference data value of 'nonsense'. Example values include 'AD', 'AE', 'AF', 'AG', 'AI', 'AL', 'AM', 'AO', 'AR', 'AS'...",
    ]);
    expect(detailsOf('v2026.1', { iqts_country: '' }).iqts_country).toBeNull();
    expect(detailsOf('v2026.1', { iqts_country: null }).iqts_country).toBeNull();
    expect(detailsOf('v2025.0', { iqts_country: 'LS' }).iqts_country).toBeNull();
  });
});

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

describe('coded fields (docs/reference/API-FACTS.md §6.6, §6.9)', () => {
  it.each([
    ['sex', '3', "sex has invalid reference data value of '3'. Valid values are '10', '11', '12', '96', '99'."],
    ['sex', 10, "sex has invalid reference data value of '10'. Valid values are '10', '11', '12', '96', '99'."],
    ['study_mode', 1, "study_mode has invalid reference data value of '1'. Valid values are '01', '02', '31', '63', '64'."],
    ['itt_aim', '203', "itt_aim has invalid reference data value of '203'. Valid values are '201', '202'."],
    ['fund_code', '3', "fund_code has invalid reference data value of '3'. Valid values are '2', '7'."],
    [
      'funding_method',
      'Z',
      "funding_method has invalid reference data value of 'Z'. Valid values are '4', '6', '7', '8', '9', 'B', 'C', 'D', 'E'.",
    ],
    [
      'training_initiative',
      'now_teach',
      "training_initiative has invalid reference data value of 'now_teach'. Valid values are '009', '011', '025', '026', '036'.",
    ],
    [
      'itt_qualification_aim',
      'BA',
      "itt_qualification_aim has invalid reference data value of 'BA'. Example values include '001', '002', '003', '004', '007', '008', '020', '021', '028', '031'...",
    ],
    [
      'course_age_range',
      '13900',
      "course_age_range has invalid reference data value of '13900'. Example values include '13909', '13911', '13912', '13913', '13914', '13915', '13916', '13917', '13918', '13919'...",
    ],
  ])('%s %p is refused in both versions', (field, value, message) => {
    for (const version of BOTH) expect(errorsOf(version, { [field]: value })).toEqual([message]);
  });

  it.each([
    [
      'ethnicity',
      'Irish',
      "ethnicity has invalid reference data value of 'Irish'. Example values include '180', '100', '101', '103', '104', '119', '120', '121', '139', '140'...",
      "ethnicity has invalid reference data value of 'Irish'. Example values include '100', '101', '103', '104', '119', '120', '121', '139', '140', '141'...",
    ],
    [
      'nationality',
      'british',
      "nationality has invalid reference data value of 'british'. Example values include 'AL', 'AF', 'DZ', 'US', 'AD', 'AO', 'AI', 'AR', 'AM', 'AU'...",
      "nationality has invalid reference data value of 'british'. Example values include 'AD', 'AE', 'AF', 'AG', 'AI', 'AL', 'AM', 'AO', 'AR', 'AT'...",
    ],
    [
      'course_subject_1',
      'maths',
      "course_subject_one has invalid reference data value of 'maths'. Example values include '101117', '100343', '101038', '100358', '101060', '101192', '100346', '100078', '100079', '100417'...",
      "course_subject_1 has invalid reference data value of 'maths'. Example values include '100048', '100050', '100061', '100068', '100069', '100071', '100078', '100079', '100091', '100092'...",
    ],
    [
      'course_subject_2',
      'x',
      "course_subject_two has invalid reference data value of 'x'. Example values include '101117', '100343', '101038', '100358', '101060', '101192', '100346', '100078', '100079', '100417'...",
      "course_subject_2 has invalid reference data value of 'x'. Example values include '100048', '100050', '100061', '100068', '100069', '100071', '100078', '100079', '100091', '100092'...",
    ],
    [
      'course_subject_3',
      'x',
      "course_subject_three has invalid reference data value of 'x'. Example values include '101117', '100343', '101038', '100358', '101060', '101192', '100346', '100078', '100079', '100417'...",
      "course_subject_3 has invalid reference data value of 'x'. Example values include '100048', '100050', '100061', '100068', '100069', '100071', '100078', '100079', '100091', '100092'...",
    ],
  ])('%s %p: label and list per version', (field, value, v2025, v2026) => {
    expect(errorsOf('v2025.0', { [field]: value })).toEqual([v2025]);
    expect(errorsOf('v2026.1', { [field]: value })).toEqual([v2026]);
  });

  it('itt_aim accepts a JSON number and stores a string (docs/DESIGN.md ruling 12)', () => {
    expect(detailsOf('v2026.1', { itt_aim: 201 }).itt_aim).toBe('201');
    expect(errorsOf('v2026.1', { itt_aim: 202 })).toEqual(['itt_qualification_aim must be entered if 202 selected for itt_aim']);
    expect(errorsOf('v2026.1', { itt_aim: 203 })).toEqual([
      "itt_aim has invalid reference data value of '203'. Valid values are '201', '202'.",
    ]);
  });

  it('course_age_range 13920 is unknown in v2025.0', () => {
    expect(errorsOf('v2025.0', { course_age_range: '13920' })).toEqual([
      "course_age_range has invalid reference data value of '13920'. Example values include '13909', '13911', '13912', '13913', '13914', '13915', '13916', '13917', '13918', '13919'...",
    ]);
  });

  it('additional_training_initiative is a code in v2026.1 and stored as sent in v2025.0', () => {
    expect(errorsOf('v2026.1', { additional_training_initiative: 'x' })).toEqual([
      "additional_training_initiative has invalid reference data value of 'x'. Valid values are '009', '011', '025', '026', '036'.",
    ]);
    expect(detailsOf('v2026.1', { additional_training_initiative: '026' }).additional_training_initiative).toBe('026');
    expect(detailsOf('v2025.0', { additional_training_initiative: 'x' }).additional_training_initiative).toBe('x');
  });

  it('does not check disability codes (unknown codes are stored)', () => {
    expect(detailsOf('v2026.1', { disability1: 'X1', disability12: '58' }).disabilities).toEqual({ disability1: 'X1', disability12: '58' });
  });
});

describe('training routes (docs/reference/API-FACTS.md §6.6, §6.9)', () => {
  it('v2025.0 refuses routes 15–21 by their internal name', () => {
    const list = "Valid values are '02', '03', '09', '10', '11', '12', '14'.";
    expect(errorsOf('v2025.0', POSTGRAD('15'))).toEqual([`training_route has invalid reference data value of 'iqts'. ${list}`]);
    expect(errorsOf('v2025.0', POSTGRAD('21'))).toEqual([`training_route has invalid reference data value of 'hpitt_postgrad'. ${list}`]);
    expect(errorsOf('v2025.0', { training_route: '18' })).toEqual([
      `training_route has invalid reference data value of 'early_years_undergrad'. ${list}`,
    ]);
    expect(errorsOf('v2025.0', { training_route: '99' })).toEqual([`training_route has invalid reference data value of '99'. ${list}`]);
    expect(errorsOf('v2025.0', POSTGRAD('02'))).toEqual([]);
  });

  it('v2026.1 refuses route 02', () => {
    const list = "Example values include '03', '09', '10', '11', '12', '14', '15', '16', '17', '18'...";
    expect(errorsOf('v2026.1', POSTGRAD('02'))).toEqual([
      `training_route has invalid reference data value of 'school_direct_tuition_fee'. ${list}`,
    ]);
    expect(errorsOf('v2026.1', { training_route: 11 })).toEqual([`training_route has invalid reference data value of '11'. ${list}`]);
  });

  it.each(BOTH)('%s refuses route 12 when the start cycle is before 2022', (version) => {
    const message = expect.stringMatching(/^training_route has invalid reference data value of 'provider_led_postgrad'\. /);
    const early = { ...POSTGRAD('12'), itt_start_date: '2021-09-01', itt_end_date: '2022-07-31' };
    expect(errorsOf(version, early)).toEqual([message]);
    expect(errorsOf(version, { ...early, itt_start_date: '2022-08-01', itt_end_date: '2023-07-31' })).toEqual([]);
    // trainee_start_date decides before itt_start_date
    expect(errorsOf(version, { ...early, trainee_start_date: '2022-09-01' })).toEqual([]);
    expect(
      errorsOf(version, { ...POSTGRAD('12'), itt_start_date: '2022-09-01', itt_end_date: '2023-07-31', trainee_start_date: '2021-09-01' }),
    ).toEqual([message]);
  });
});

describe('course subjects and age ranges (docs/reference/API-FACTS.md §6.6)', () => {
  it.each(BOTH)('%s: duplicate subjects', (version) => {
    expect(errorsOf(version, { course_subject_2: '100346' })).toEqual([`${s2(version)} might contain duplicate values`]);
    expect(errorsOf(version, { course_subject_2: '100403', course_subject_3: '100346' })).toEqual([
      `${s3(version)} might contain duplicate values`,
    ]);
    expect(errorsOf(version, { course_subject_2: '100403', course_subject_3: '100403' })).toEqual([
      `${s3(version)} might contain duplicate values`,
    ]);
    expect(detailsOf(version, { course_subject_2: '100403', course_subject_3: '100425' })).toMatchObject({
      course_subject_1: '100346',
      course_subject_2: '100403',
      course_subject_3: '100425',
    });
  });

  it('v2025.0 rewrites primary courses: subject 1 becomes primary teaching, the others follow', () => {
    expect(detailsOf('v2025.0', { course_age_range: '13915' })).toMatchObject({
      course_subject_1: '100511',
      course_subject_2: '100346',
      course_subject_3: null,
      course_education_phase: 'primary',
      course_min_age: 7,
      course_max_age: 11,
    });
    expect(detailsOf('v2025.0', { course_age_range: '13912', course_subject_2: '101410', course_subject_3: '100366' })).toMatchObject({
      course_subject_1: '100511',
      course_subject_2: '100346',
      course_subject_3: '101410',
    });
    expect(detailsOf('v2025.0', { course_age_range: '13909', course_subject_1: undefined }).course_subject_1).toBe('100511');
    expect(detailsOf('v2025.0', { course_age_range: '13909', course_subject_1: '100511', course_subject_2: '100403' })).toMatchObject({
      course_subject_1: '100511',
      course_subject_2: '100403',
      course_subject_3: null,
    });
    expect(errorsOf('v2025.0', { course_age_range: '13909', course_subject_2: 'x' })).toEqual([
      expect.stringMatching(/^course_subject_two has invalid reference data value of 'x'/),
    ]);
  });

  it('v2026.1 requires primary teaching as subject 1 for a primary age range', () => {
    expect(errorsOf('v2026.1', { course_age_range: '13915' })).toEqual([
      'course_subject_1 is invalid. It should be `100511` for the course_age_range provided',
    ]);
    expect(detailsOf('v2026.1', { course_age_range: '13915', course_subject_1: '100511' }).course_education_phase).toBe('primary');
    expect(detailsOf('v2026.1', { course_age_range: '13916' }).course_education_phase).toBe('secondary');
  });

  it('v2026.1 early-years routes need subject 100510 and age range 13920', () => {
    const ey = { training_route: '18', course_subject_1: '100510', course_age_range: '13920' };
    expect(detailsOf('v2026.1', ey)).toMatchObject({
      course_education_phase: 'early_years',
      course_qualification: 'EYTS',
      course_level: 'undergrad',
      course_min_age: 0,
      course_max_age: 5,
    });
    expect(errorsOf('v2026.1', { ...ey, course_subject_1: '100346' })).toEqual([
      'course_subject_1 is invalid. It should be `100510` for the training_route provided',
    ]);
    expect(errorsOf('v2026.1', { ...ey, course_age_range: '13918' })).toEqual([
      'course_age_range is invalid. It should be `13920` for the training_route provided',
    ]);
    // duplicate subjects are not checked for early-years routes
    expect(errorsOf('v2026.1', { ...ey, course_subject_2: '100510' })).toEqual([]);
  });

  it('v2026.1 keeps age range 13920 for early-years routes', () => {
    expect(errorsOf('v2026.1', { course_age_range: '13920' })).toEqual([
      'course_age_range is invalid. It can only be used for early years training routes',
    ]);
  });
});

describe('disabilities and diversity (docs/reference/API-FACTS.md §6.6, §6.7)', () => {
  it.each(BOTH)('%s: the same code twice', (version) => {
    expect(errorsOf(version, { disability1: '58', disability2: '58' })).toEqual(['disabilities contain duplicate values']);
  });

  it.each([
    [{}, 'disability_not_provided', 'diversity_not_disclosed'],
    [{ disability1: '98' }, 'disability_not_provided', 'diversity_not_disclosed'],
    [{ disability1: '98', disability2: '99' }, 'disability_not_provided', 'diversity_not_disclosed'],
    [{ disability1: '95' }, 'no_disability', 'diversity_disclosed'],
    [{ disability1: '58' }, 'disabled', 'diversity_disclosed'],
    [{ disability1: '95', disability2: '58' }, 'disabled', 'diversity_disclosed'],
    [{ disability1: 'X1' }, 'disability_not_provided', 'diversity_not_disclosed'],
    [{ disability10: '58' }, 'disability_not_provided', 'diversity_not_disclosed'],
    [{ ethnicity: '142' }, 'disability_not_provided', 'diversity_disclosed'],
    [{ ethnicity: '998' }, 'disability_not_provided', 'diversity_not_disclosed'],
  ])('%j → %s, %s', (over, disability, diversity) => {
    const d = detailsOf('v2026.1', over);
    expect(d.disability_disclosure).toBe(disability);
    expect(d.diversity_disclosure).toBe(diversity);
  });

  it.each([
    [{}, '997', 'Not provided', 'not_provided_ethnic_group'],
    [{ ethnicity: null }, '997', 'Not provided', 'not_provided_ethnic_group'],
    [{ ethnicity: '999' }, '997', 'Not provided', 'not_provided_ethnic_group'],
    [{ ethnicity: '142' }, '142', 'Black Caribbean and White', 'mixed_ethnic_group'],
    [{ ethnicity: '180' }, '180', 'Arab', 'other_ethnic_group'],
  ])('ethnicity %j → %s / %s / %s', (over, code, background, group) => {
    expect(detailsOf('v2025.0', over)).toMatchObject({ ethnicity: code, ethnic_background: background, ethnic_group: group });
  });

  it('ignores ethnic_group, ethnic_background and diversity_disclosure sent by the client', () => {
    const d = detailsOf('v2026.1', {
      ethnic_group: 'white_ethnic_group',
      ethnic_background: 'Irish',
      diversity_disclosure: 'diversity_disclosed',
    });
    expect(d).toMatchObject({
      ethnic_group: 'not_provided_ethnic_group',
      ethnic_background: 'Not provided',
      diversity_disclosure: 'diversity_not_disclosed',
    });
  });
});

describe('other derived values (docs/reference/API-FACTS.md §6.7, §13.4)', () => {
  it('nationality is returned as its output code (British territories → GB)', () => {
    expect(detailsOf('v2026.1', { nationality: 'JE' }).nationality).toBe('GB');
    expect(detailsOf('v2026.1', { nationality: 'FR' }).nationality).toBe('FR');
    expect(detailsOf('v2026.1').nationality).toBeNull();
  });

  it('derives course_level and course_qualification from the route', () => {
    expect(detailsOf('v2026.1')).toMatchObject({ course_level: 'undergrad', course_qualification: 'QTS' });
    expect(detailsOf('v2026.1', POSTGRAD('12'))).toMatchObject({ course_level: 'postgrad', course_qualification: 'QTS' });
    expect(detailsOf('v2026.1', { training_route: '14' }).course_level).toBe('undergrad');
    expect(detailsOf('v2026.1', { training_route: '09' }).course_level).toBe('undergrad');
  });

  it('squishes names, email and statsagency_id after validation', () => {
    const d = detailsOf('v2026.1', {
      first_names: '  Ada   Mary ',
      middle_names: ' B  C ',
      last_name: 'Love  lace ',
      statsagency_id: '12345 7890123',
    });
    expect(d).toMatchObject({ first_names: 'Ada Mary', middle_names: 'B C', last_name: 'Love lace', statsagency_id: '12345 7890123' });
    expect(detailsOf('v2026.1', { middle_names: '  ' }).middle_names).toBeNull();
  });

  it('stores output codes and null defaults', () => {
    expect(detailsOf('v2025.0')).toMatchObject({
      fund_code: '2',
      funding_method: '6',
      training_initiative: null,
      additional_training_initiative: null,
      course_title: null,
      additional_ethnic_background: null,
      employing_school_urn: null,
      training_partner_urn: null,
      training_partner_ukprn: null,
      study_mode: '01',
      course_year: 2026,
      itt_aim: '201',
      itt_qualification_aim: null,
    });
  });
});

describe('training partner and employing school (decision (a); docs/reference/API-FACTS.md §6.8)', () => {
  it('v2025.0 reads lead_partner_*; the URN wins over the UKPRN', () => {
    expect(detailsOf('v2025.0', { lead_partner_urn: ' 459283 ', lead_partner_ukprn: '65782432' })).toMatchObject({
      training_partner_urn: '459283',
      training_partner_ukprn: null,
    });
    expect(detailsOf('v2025.0', { lead_partner_ukprn: '65782432' })).toMatchObject({
      training_partner_urn: null,
      training_partner_ukprn: '65782432',
    });
    const withV2026Name = { ...payload('v2025.0'), training_partner_urn: '459283' };
    const result = validateNewTrainee(withV2026Name, { version: 'v2025.0', today: TODAY });
    expect(result.ok && result.value.details.training_partner_urn).toBeNull();
  });

  it('v2026.1 reads training_partner_* and ignores lead_partner_*', () => {
    expect(detailsOf('v2026.1', { training_partner_urn: 660776 }).training_partner_urn).toBe('660776');
    expect(detailsOf('v2026.1', { lead_partner_urn: '459283' }).training_partner_urn).toBeNull();
  });

  it.each(['900000', '900010', '900020', '900030', '', null])('not-applicable value %p is stored null', (value) => {
    expect(detailsOf('v2026.1', { employing_school_urn: value, training_partner_urn: value })).toMatchObject({
      employing_school_urn: null,
      training_partner_urn: null,
    });
  });

  it('a wrong type is a message', () => {
    expect(errorsOf('v2026.1', { employing_school_urn: { urn: 1 }, training_partner_urn: [1] })).toEqual([
      'employing_school_urn is invalid',
      'training_partner_urn is invalid',
    ]);
  });
});

describe('nested degrees and placements (docs/reference/API-FACTS.md §6.6, §6.10, §9.2)', () => {
  it('returns the validated degrees and placements', () => {
    const result = validateNewTrainee(
      payload('v2026.1', {
        ...POSTGRAD('12'),
        placements_attributes: [{ urn: '123456', name: 'Oak School', postcode: 'GU1 1AA' }, { urn: '900010' }],
      }),
      { version: 'v2026.1', today: TODAY },
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.degrees).toHaveLength(1);
    expect(result.value.degrees[0]).toMatchObject({ subject: '100425', graduation_year: 2003, institution: '0116' });
    expect(result.value.placements).toEqual([
      // docs/DESIGN.md ruling 13: a nested postcode is kept, and the address built from URN and postcode.
      { urn: '123456', name: 'Oak School', postcode: 'GU1 1AA', address: 'URN 123456, GU1 1AA', school_id: null },
      { urn: '900010', name: 'Not applicable or not available', postcode: null, address: null, school_id: null },
    ]);
  });

  it('reports nested degree messages without a prefix and placement messages with one', () => {
    expect(
      errorsOf('v2026.1', {
        training_route: '12',
        degrees_attributes: [
          { ...DEGREE, graduation_year: 'soon' },
          { ...DEGREE, subject: 'x' },
        ],
        placements_attributes: [{ urn: '12', name: '' }],
      }),
    ).toEqual([
      'graduation_year is invalid',
      'subject must be entered if specifying a previous UK degree or non-UK degree',
      'placements_attributes urn is invalid',
      "placements_attributes name can't be blank",
    ]);
  });

  it('refuses two identical degrees in one payload', () => {
    expect(errorsOf('v2026.1', { training_route: '12', degrees_attributes: [DEGREE, { ...DEGREE, institution: '0001' }] })).toEqual([
      'degrees_attributes contains duplicate degrees',
    ]);
    expect(errorsOf('v2026.1', { training_route: '12', degrees_attributes: [DEGREE, { ...DEGREE, graduation_year: '2004' }] })).toEqual([]);
  });

  it('refuses a degrees_attributes or placements_attributes that is not an array', () => {
    expect(errorsOf('v2026.1', { degrees_attributes: 'x', placements_attributes: { urn: '123456' } })).toEqual([
      'degrees_attributes is invalid',
      'placements_attributes is invalid',
    ]);
  });
});

describe('the most nested items a create takes (docs/DESIGN.md ruling 14)', () => {
  const placements = (
    n: number,
    item: (i: number) => Record<string, unknown> = (i) => ({ urn: String(200000 + i), name: `School ${i}` }),
  ) => Array.from({ length: n }, (_, i) => item(i));
  /** `n` degrees that differ in their graduation year, so none duplicates another. */
  const degrees = (n: number) => Array.from({ length: n }, (_, i) => ({ ...DEGREE, graduation_year: String(1990 + i) }));

  it.each(BOTH)(
    `%s: ${PLACEMENTS_ATTRIBUTES_MAX_ITEMS} placements and ${DEGREES_ATTRIBUTES_MAX_ITEMS} degrees are taken, every one kept`,
    (version) => {
      const result = validateNewTrainee(
        payload(version, {
          placements_attributes: placements(PLACEMENTS_ATTRIBUTES_MAX_ITEMS),
          degrees_attributes: degrees(DEGREES_ATTRIBUTES_MAX_ITEMS),
        }),
        { version, today: TODAY },
      );
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.value.placements).toHaveLength(PLACEMENTS_ATTRIBUTES_MAX_ITEMS);
      expect(result.value.degrees).toHaveLength(DEGREES_ATTRIBUTES_MAX_ITEMS);
    },
  );

  it.each(BOTH)('%s: one placement more is refused with the bound alone, its items not checked', (version) => {
    expect(errorsOf(version, { placements_attributes: placements(PLACEMENTS_ATTRIBUTES_MAX_ITEMS + 1) })).toEqual([
      `placements_attributes is too long (maximum is ${PLACEMENTS_ATTRIBUTES_MAX_ITEMS} placements)`,
    ]);
    expect(
      errorsOf(version, { placements_attributes: placements(PLACEMENTS_ATTRIBUTES_MAX_ITEMS + 1, () => ({ urn: 'x', name: '' })) }),
    ).toEqual([`placements_attributes is too long (maximum is ${PLACEMENTS_ATTRIBUTES_MAX_ITEMS} placements)`]);
  });

  it.each(BOTH)('%s: one degree more is refused with the bound alone, its items not checked', (version) => {
    expect(errorsOf(version, { degrees_attributes: degrees(DEGREES_ATTRIBUTES_MAX_ITEMS + 1) })).toEqual([
      `degrees_attributes is too long (maximum is ${DEGREES_ATTRIBUTES_MAX_ITEMS} degrees)`,
    ]);
    expect(errorsOf(version, { degrees_attributes: Array.from({ length: DEGREES_ATTRIBUTES_MAX_ITEMS + 1 }, () => DEGREE) })).toEqual([
      `degrees_attributes is too long (maximum is ${DEGREES_ATTRIBUTES_MAX_ITEMS} degrees)`,
    ]);
  });

  it("reports both bounds, in the order of the other messages, beside the other fields' problems", () => {
    expect(
      errorsOf('v2026.1', {
        first_names: '',
        placements_attributes: placements(PLACEMENTS_ATTRIBUTES_MAX_ITEMS + 5),
        degrees_attributes: degrees(DEGREES_ATTRIBUTES_MAX_ITEMS + 5),
      }),
    ).toEqual([
      "first_names can't be blank",
      `degrees_attributes is too long (maximum is ${DEGREES_ATTRIBUTES_MAX_ITEMS} degrees)`,
      `placements_attributes is too long (maximum is ${PLACEMENTS_ATTRIBUTES_MAX_ITEMS} placements)`,
    ]);
  });

  it('answers an array of a hundred thousand items with the bound', () => {
    expect(errorsOf('v2025.0', { placements_attributes: placements(100_000, () => ({})) })).toEqual([
      `placements_attributes is too long (maximum is ${PLACEMENTS_ATTRIBUTES_MAX_ITEMS} placements)`,
    ]);
  });
});

describe('funding, initiative and fund-code rules (docs/reference/API-FACTS.md §8)', () => {
  it.each(BOTH)('%s: fund_code 7 needs a funded route in the cycle and a known age range', (version) => {
    expect(errorsOf(version, { fund_code: '7' })).toEqual([]);
    expect(errorsOf(version, { fund_code: '7', itt_start_date: '2027-08-01' })).toEqual(['fund_code is not valid for this trainee']);
    expect(errorsOf(version, { fund_code: '7', training_route: '14' })).toEqual(['fund_code is not valid for this trainee']);
    expect(errorsOf(version, { fund_code: '7', course_age_range: undefined })).toEqual([
      "course_age_range can't be blank",
      'fund_code is not valid for this trainee',
    ]);
  });

  it.each(BOTH)('%s: a funding method needs fund_code 7', (version) => {
    expect(errorsOf(version, { funding_method: '4' })).toEqual([
      `funding_method 'scholarship' is not allowed when fund_code is '2' and ${s1(version)} is 'biology'`,
    ]);
  });

  it('the fund-code exception: physics in 2025 (both) and 2026 (v2026.1 only)', () => {
    const physics2026 = { ...POSTGRAD('12'), course_subject_1: '100425', funding_method: '7' };
    expect(errorsOf('v2026.1', physics2026)).toEqual([]);
    expect(errorsOf('v2025.0', physics2026)).toEqual([
      "funding_method 'bursary' is not allowed when fund_code is '2' and course_subject_one is 'physics'",
    ]);
    const physics2025 = { ...physics2026, itt_start_date: '2025-09-01' };
    expect(errorsOf('v2025.0', physics2025)).toEqual([]);
    expect(errorsOf('v2026.1', physics2025)).toEqual([]);
  });

  it.each(BOTH)('%s: the funding method must exist for cycle, route and subject', (version) => {
    expect(errorsOf(version, { fund_code: '7', funding_method: 'E' })).toEqual([
      `funding_method 'grant' is not allowed when training_route is 'provider_led_undergrad' and ${s1(version)} is 'biology' in academic cycle '2026 to 2027'`,
    ]);
    expect(errorsOf(version, { fund_code: '7', funding_method: '7', course_subject_1: '100403' })).toEqual([]);
  });

  it('funding_method C means the veterans bursary initiative (output null)', () => {
    const d = detailsOf('v2026.1', { fund_code: '7', funding_method: 'C', course_subject_1: '100403', training_initiative: '026' });
    expect(d.training_initiative).toBeNull();
    expect(d.funding_method).toBe('C');
  });

  it.each(BOTH)('%s: the training initiative must be available in the cycle', (version) => {
    expect(errorsOf(version, { training_initiative: '009' })).toEqual([
      "training_initiative 'maths_physics_chairs_programme_researchers_in_schools' is not available in academic cycle '2026 to 2027'",
    ]);
    expect(detailsOf(version, { training_initiative: '026' }).training_initiative).toBe('026');
    expect(errorsOf(version, { training_initiative: '026', itt_start_date: '2027-08-01' })).toEqual([]);
  });

  it('checks additional_training_initiative availability in v2026.1 only', () => {
    expect(errorsOf('v2026.1', { additional_training_initiative: '036' })).toEqual([
      "additional_training_initiative 'international_relocation_payment' is not available in academic cycle '2026 to 2027'",
    ]);
    expect(errorsOf('v2025.0', { additional_training_initiative: '036' })).toEqual([]);
  });

  it('uses today + 1 month when no start date parses', () => {
    const result = validateNewTrainee(payload('v2026.1', { itt_start_date: 'x', training_initiative: '009' }), {
      version: 'v2026.1',
      today: '2026-07-15',
    });
    expect(result).toEqual({
      ok: false,
      errors: [
        'itt_start_date is invalid',
        "training_initiative 'maths_physics_chairs_programme_researchers_in_schools' is not available in academic cycle '2026 to 2027'",
      ],
    });
  });
});

describe('wrong JSON types and message order', () => {
  it('reports wrong types as messages', () => {
    expect(errorsOf('v2026.1', { first_names: true, last_name: { a: 1 }, sex: false, disability1: [58] })).toEqual([
      'first_names is invalid',
      'last_name is invalid',
      "sex can't be blank",
      'disability1 is invalid',
    ]);
    expect(detailsOf('v2026.1', { first_names: 123, provider_trainee_id: 42 })).toMatchObject({
      first_names: '123',
      provider_trainee_id: '42',
    });
  });

  it('returns every failed rule at once, fields in §6.3 order then cross-field rules', () => {
    expect(
      errorsOf('v2026.1', {
        training_initiative: '009',
        disability1: '58',
        disability2: '58',
        course_subject_2: '100346',
        email: 'bad',
        sex: '3',
        date_of_birth: '2020-01-01',
        first_names: 'x'.repeat(61),
      }),
    ).toEqual([
      'first_names is too long (maximum is 60 characters)',
      'date_of_birth cannot be less than 16 years ago',
      "sex has invalid reference data value of '3'. Valid values are '10', '11', '12', '96', '99'.",
      'email Enter an email address in the correct format, like name@example.com',
      'course_subject_2 might contain duplicate values',
      'disabilities contain duplicate values',
      "training_initiative 'maths_physics_chairs_programme_researchers_in_schools' is not available in academic cycle '2026 to 2027'",
    ]);
  });

  it('does not repeat a message', () => {
    const errors = errorsOf('v2026.1', {
      training_route: '12',
      degrees_attributes: [
        { ...DEGREE, subject: 'x' },
        { ...DEGREE, subject: 'y' },
      ],
    });
    expect(errors).toEqual(['subject must be entered if specifying a previous UK degree or non-UK degree']);
  });
});
