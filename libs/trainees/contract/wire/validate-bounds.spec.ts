import {
  COURSE_YEAR_MAX,
  COURSE_YEAR_MIN,
  versionFieldName,
  type ApiVersion,
  DISABILITY_KEYS_MAX,
  TEXT_MAX_CHARS,
} from '@app/trainees/record';
import { decimalText, echoValue } from './values';
import { createBody, degreeBody } from '../testing/bodies';
import { BOTH, payload, TODAY } from '../testing/trainee-payload';

const MB = 1024 * 1024;

function createErrors(version: ApiVersion, over: Record<string, unknown>): string[] {
  const r = createBody(payload(version, over), { version, today: TODAY });
  return r.ok ? [] : r.errors;
}

/** docs/DESIGN.md ruling 14: a length or format for every free-text field, and no message quoting an unbounded value. */
describe.each(BOTH)('bounded text of %s write bodies', (version) => {
  it.each(['QQ 12 34 56 C', 'QQ123456C', 'ab 123456 d', 'AB12 34 56A'])('accepts the National Insurance number %s', (ni) => {
    expect(createErrors(version, { ni_number: ni })).toEqual([]);
  });

  it.each(['QQ 12 34 56 E', 'Q1234567C', 'QQ12345C', ' QQ123456C', 'QQ  123456C', 'A'.repeat(MB), 123456])(
    'answers the ni_number %s with `ni_number is invalid`',
    (ni) => {
      expect(createErrors(version, { ni_number: ni })).toEqual(['ni_number is invalid']);
    },
  );

  const shortText = ['previous_last_name', 'employing_school_urn', 'training_partner_urn', 'training_partner_ukprn'];
  it.each(shortText)(`bounds %s at ${TEXT_MAX_CHARS} characters`, (field) => {
    const label = versionFieldName(field, version) ?? field;
    expect(createErrors(version, { [field]: 'x'.repeat(MB) })).toContain(`${label} is too long (maximum is ${TEXT_MAX_CHARS} characters)`);
  });

  it(`bounds a course_year given as text at ${TEXT_MAX_CHARS} characters where any value is accepted, quoting none of it`, () => {
    const expected =
      version === 'v2025.0'
        ? [`course_year is too long (maximum is ${TEXT_MAX_CHARS} characters)`]
        : ['course_year is not a valid course year'];
    expect(createErrors(version, { course_year: 'y'.repeat(MB) })).toEqual(expected);
    expect(createErrors(version, { course_year: version === 'v2025.0' ? 'y'.repeat(TEXT_MAX_CHARS) : '2026' })).toEqual([]);
  });

  it('bounds a course_year to the integer the real service keeps it as', () => {
    for (const inside of [COURSE_YEAR_MIN, COURSE_YEAR_MAX, 2026, '2147483647']) {
      expect(createErrors(version, { course_year: inside })).toEqual([]);
    }
    for (const outside of [
      COURSE_YEAR_MAX + 1,
      COURSE_YEAR_MIN - 1,
      1e15,
      ...(version === 'v2026.1' ? ['2147483648', '00000000001'] : []),
    ]) {
      expect(createErrors(version, { course_year: outside })).toEqual(['course_year is not a valid course year']);
    }
  });

  it('holds a JSON number sent as free text to the field’s length as its decimal text', () => {
    expect(createErrors(version, { first_names: 1e300 })).toEqual(['first_names is too long (maximum is 60 characters)']);
    expect(createErrors(version, { first_names: 1e59 })).toEqual([]);
    expect(createErrors(version, { first_names: 1e60 })).toEqual(['first_names is too long (maximum is 60 characters)']);
    expect(createErrors(version, { disability3: 1e300 })).toEqual(['disability3 is too long (maximum is 255 characters)']);
  });

  it(`bounds a placement's postcode at ${TEXT_MAX_CHARS} characters, white space inside included`, () => {
    const placement = (postcode: string) => ({ placements_attributes: [{ urn: '123456', name: 'Elm School', postcode }] });
    expect(createErrors(version, placement(`SW1A${' '.repeat(TEXT_MAX_CHARS - 7)}1AA`))).toEqual([]);
    expect(createErrors(version, placement(`SW1A${' '.repeat(MB)}1AA`))).toEqual([
      'placements_attributes postcode Enter a valid postcode (for example, BN1 1AA)',
    ]);
  });

  it(`accepts ${DISABILITY_KEYS_MAX} disabilityN keys and answers more with one message`, () => {
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`disability${i + 1}`, '58']));
    expect(createErrors(version, keys(DISABILITY_KEYS_MAX))).not.toContain(
      `disabilities is too long (maximum is ${DISABILITY_KEYS_MAX} disabilities)`,
    );
    expect(createErrors(version, keys(DISABILITY_KEYS_MAX + 1))).toEqual([
      `disabilities is too long (maximum is ${DISABILITY_KEYS_MAX} disabilities)`,
    ]);
  });

  it('answers a long disabilityN key or value without quoting it', () => {
    expect(createErrors(version, { [`disability${'1'.repeat(MB)}`]: '58' })).toEqual([
      'disabilities is invalid (keys are disability1 to disability99)',
    ]);
    expect(createErrors(version, { disability1: 'x'.repeat(MB) })).toEqual([
      `disability1 is too long (maximum is ${TEXT_MAX_CHARS} characters)`,
    ]);
  });

  it('bounds the free text of a degree and quotes no unbounded value', () => {
    const r = degreeBody(
      {
        grade: 'g'.repeat(MB),
        institution: 'i'.repeat(MB),
        other_grade: 'o'.repeat(MB),
        uk_degree: 'u'.repeat(MB),
        subject: '100425',
        graduation_year: 2003,
      },
      { version, today: TODAY },
    );
    expect(r.ok).toBe(false);
    const errors = r.ok ? [] : r.errors;
    for (const field of ['grade', 'institution', 'other_grade'])
      expect(errors).toContain(`${field} is too long (maximum is ${TEXT_MAX_CHARS} characters)`);
    expect(errors.join('\n').length).toBeLessThan(2000);
  });

  it.each(['country', 'non_uk_degree'])(`refuses a %s over ${TEXT_MAX_CHARS} characters even where the degree is a UK one`, (field) => {
    const valid = { grade: '02', subject: '100425', institution: '0116', uk_degree: '083', graduation_year: 2003 };
    expect(degreeBody(valid, { version, today: TODAY }).ok).toBe(true);
    const r = degreeBody({ ...valid, [field]: 'c'.repeat(MB) }, { version, today: TODAY });
    expect(r.ok ? [] : r.errors).toContain(`${field} is too long (maximum is ${TEXT_MAX_CHARS} characters)`);
  });

  it('quotes a deep or long coded value bounded, never with an internal message', () => {
    let deep: unknown = '083';
    for (let i = 0; i < 5000; i++) deep = [deep];
    const r = degreeBody({ uk_degree: deep, subject: '100425', graduation_year: 2003, grade: '02' }, { version, today: TODAY });
    const errors = r.ok ? [] : r.errors;
    expect(errors.some((e) => e.startsWith('uk_degree has invalid reference data value of'))).toBe(true);
    expect(errors.join('\n')).not.toMatch(/Maximum call stack|RangeError/);
    expect(createErrors(version, { sex: 's'.repeat(MB) }).join('\n').length).toBeLessThan(2000);
  });
});

describe('decimalText', () => {
  it('writes a number without an exponent, from its shortest digits', () => {
    expect([1e21, 1.5e-7, -1.5e-7, -0, 123.5, 1.2345e25].map(decimalText)).toEqual([
      '1000000000000000000000',
      '0.00000015',
      '-0.00000015',
      '0',
      '123.5',
      '12345000000000000000000000',
    ]);
    expect(decimalText(1e300)).toBe(`1${'0'.repeat(300)}`);
    expect(decimalText(5e-324)).toBe(`0.${'0'.repeat(323)}5`);
  });
});

describe('echoValue', () => {
  it('echoes a short string as sent and a long one cut at 200 characters', () => {
    expect(echoValue('abc')).toBe('abc');
    expect(echoValue('x'.repeat(MB))).toBe(`${'x'.repeat(200)}…`);
  });
});
