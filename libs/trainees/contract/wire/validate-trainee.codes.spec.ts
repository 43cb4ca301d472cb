import { detailsOf, errorsOf, POSTGRAD, s2, s3 } from '../testing/trainee-create';
import { BOTH } from '../testing/trainee-payload';

/**
 * Coded fields, training routes, course subjects and age ranges of a trainee create body, through
 * the checks the API runs.
 */

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
