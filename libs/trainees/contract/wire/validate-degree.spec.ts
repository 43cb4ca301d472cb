import { DEGREE_MESSAGES, MISSING_DATA_MESSAGE, degreeDuplicateKey, degreesEqualOnNonBlank } from '@app/trainees/decider';
import { OTHER_UK_INSTITUTION_UUID, type DegreeInput, type ApiVersion } from '@app/trainees/record';
import { parseGraduationYear } from './constraints';
import { degreeBody, degreeUpdateBody } from '../testing/bodies';

const TODAY = '2026-11-22';
const UK = { grade: '02', subject: '100425', institution: '0116', uk_degree: '083', graduation_year: '2003-06-01' };
const NON_UK = { country: 'FR', non_uk_degree: '051', subject: '100425', graduation_year: 2010 };

function check(input: unknown, version: ApiVersion = 'v2026.1') {
  return degreeBody(input, { version, today: TODAY });
}
function errorsOf(input: unknown, version: ApiVersion = 'v2026.1'): string[] {
  const r = check(input, version);
  return r.ok ? [] : r.errors;
}
function valueOf(input: unknown, version: ApiVersion = 'v2026.1'): DegreeInput {
  const r = check(input, version);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}

describe('degreeBody: UK degrees (docs/reference/API-FACTS.md §11)', () => {
  it('stores codes, the year and the reference uuids', () => {
    expect(valueOf(UK)).toEqual({
      uk_degree: '083',
      non_uk_degree: null,
      subject: '100425',
      institution: '0116',
      grade: '02',
      country: null,
      graduation_year: 2003,
      other_grade: null,
      institution_uuid: '1071f34a-2887-e711-80d8-005056ac45bb',
      uk_degree_uuid: '1b6a5652-c197-e711-80d8-005056ac45bb',
      subject_uuid: '918170f0-5dce-e911-a985-000d3ab79618',
      grade_uuid: 'e2fe18d4-8655-47cf-ab1a-8c3e0b0f078f',
    });
  });

  it('substitutes grade 09 → 14 and institution 0133 → 0149 (§11.5)', () => {
    expect(valueOf({ ...UK, grade: '09', institution: '0133' })).toMatchObject({
      grade: '14',
      grade_uuid: 'aaba4427-287c-4610-a838-1970dd9090c1',
      institution: '0149',
      institution_uuid: 'a27af34a-2887-e711-80d8-005056ac45bb',
    });
  });

  it('falls back to Other UK institution for an unknown or missing institution', () => {
    expect(valueOf({ ...UK, institution: '9999' })).toMatchObject({
      institution: null,
      institution_uuid: OTHER_UK_INSTITUTION_UUID,
      country: null,
    });
    expect(valueOf({ ...UK, institution: undefined })).toMatchObject({ institution: null, institution_uuid: OTHER_UK_INSTITUTION_UUID });
  });

  it('is UK for a UK country code, storing country null', () => {
    expect(valueOf({ ...UK, country: 'XF' })).toMatchObject({ country: null, institution: '0116' });
    expect(valueOf({ ...UK, institution: undefined, country: 'XK' })).toMatchObject({ country: null, institution: null });
  });

  it('is UK when an institution is given, even with an unknown or foreign country', () => {
    expect(valueOf({ ...UK, country: 'QQ' })).toMatchObject({ country: null, institution: '0116' });
    expect(valueOf({ ...UK, country: 'FR' })).toMatchObject({ country: null });
  });

  it.each([
    [{ subject: undefined }, [DEGREE_MESSAGES.subjectMissing]],
    [{ subject: '000000' }, [DEGREE_MESSAGES.subjectMissing]],
    [{ subject: 100425 }, [DEGREE_MESSAGES.subjectMissing]],
    [{ uk_degree: undefined }, [DEGREE_MESSAGES.ukDegreeMissing]],
    [{ grade: undefined }, [DEGREE_MESSAGES.gradeMissing]],
    [{ grade: '77' }, [DEGREE_MESSAGES.gradeMissing]],
    [{ graduation_year: undefined }, [DEGREE_MESSAGES.graduationYearMissing]],
    [{ graduation_year: '' }, [DEGREE_MESSAGES.graduationYearMissing]],
  ])('%j → %j', (over, expected) => {
    expect(errorsOf({ ...UK, ...over })).toEqual(expected);
  });

  it('reports an unknown uk_degree with the §6.9 list of the version', () => {
    expect(errorsOf({ ...UK, uk_degree: 'BSc' }, 'v2026.1')).toEqual([
      "uk_degree has invalid reference data value of 'BSc'. Example values include '001', '002', '003', '005', '007', '009', '010', '012', '013', '014'...",
    ]);
    expect(errorsOf({ ...UK, uk_degree: 'BSc' }, 'v2025.0')).toEqual([
      "uk_degree has invalid reference data value of 'BSc'. Example values include '002', '010', '013', '014', '051', '052', '053', '054', '055', '056'...",
    ]);
  });

  it('reports every failed rule together', () => {
    expect(errorsOf({ subject: '' })).toEqual([
      DEGREE_MESSAGES.subjectMissing,
      DEGREE_MESSAGES.graduationYearMissing,
      DEGREE_MESSAGES.ukDegreeMissing,
      DEGREE_MESSAGES.gradeMissing,
    ]);
    expect(errorsOf({ subject: null, uk_degree: null, grade: null, graduation_year: null })).toEqual(errorsOf({ subject: '' }));
  });

  it('answers a missing, empty or non-object data with the one missing-data message (docs/reference/API-FACTS.md §5.1)', () => {
    for (const input of [undefined, null, {}, [], 'not an object']) {
      expect(check(input)).toEqual({ ok: false, errors: [MISSING_DATA_MESSAGE] });
    }
  });
});

describe('degreeBody: non-UK degrees (docs/reference/API-FACTS.md §11.2, §11.3)', () => {
  it('stores the country and no institution; grade is optional', () => {
    expect(valueOf(NON_UK)).toEqual({
      uk_degree: null,
      non_uk_degree: '051',
      subject: '100425',
      institution: null,
      grade: null,
      country: 'FR',
      graduation_year: 2010,
      other_grade: null,
      institution_uuid: null,
      uk_degree_uuid: null,
      subject_uuid: '918170f0-5dce-e911-a985-000d3ab79618',
      grade_uuid: null,
    });
    expect(valueOf({ ...NON_UK, grade: '01' }).grade).toBe('01');
  });

  it('requires non_uk_degree and checks its code', () => {
    expect(errorsOf({ ...NON_UK, non_uk_degree: undefined })).toEqual([DEGREE_MESSAGES.nonUkDegreeMissing]);
    expect(errorsOf({ ...NON_UK, non_uk_degree: 'X' })).toEqual([
      "non_uk_degree has invalid reference data value of 'X'. Example values include '001', '002', '003', '005', '007', '009', '010', '012', '013', '014'...",
    ]);
  });

  it('reports an unknown country with the §6.9 list of the version', () => {
    expect(errorsOf({ ...NON_UK, country: 'QQ' }, 'v2025.0')).toEqual([
      "country has invalid reference data value of 'QQ'. Example values include 'AF', 'XQ', 'AX', 'AL', 'DZ', 'AS', 'AD', 'AO', 'AI', 'XX'...",
    ]);
    expect(errorsOf({ ...NON_UK, country: 'QQ' }, 'v2026.1')).toEqual([
      "country has invalid reference data value of 'QQ'. Example values include 'AD', 'AE', 'AF', 'AG', 'AI', 'AL', 'AM', 'AO', 'AR', 'AS'...",
    ]);
  });
});

describe('graduation_year (docs/reference/API-FACTS.md §11.3, §11.4)', () => {
  it.each([
    ['2003', 2003],
    [2003, 2003],
    ['2003-06-01', 2003],
    [' 2003 ', 2003],
    ['2003-02-30', 'invalid'],
    ['2003-6-1', 'invalid'],
    [2003.5, 'invalid'],
    ['soon', 'invalid'],
    [true, 'invalid'],
    [null, null],
    ['', null],
  ])('parses %p as %p', (input, expected) => {
    expect(parseGraduationYear(input)).toBe(expected);
  });

  it('accepts [next year − 60, next year] relative to today', () => {
    expect(errorsOf({ ...UK, graduation_year: 2027 })).toEqual([]);
    expect(errorsOf({ ...UK, graduation_year: 1967 })).toEqual([]);
    expect(errorsOf({ ...UK, graduation_year: 1966 })).toEqual([DEGREE_MESSAGES.graduationYearInvalid]);
    expect(errorsOf({ ...UK, graduation_year: '2028' })).toEqual([
      DEGREE_MESSAGES.graduationYearFuture,
      DEGREE_MESSAGES.graduationYearInvalid,
    ]);
    expect(errorsOf({ ...UK, graduation_year: 'soon' })).toEqual([DEGREE_MESSAGES.graduationYearInvalid]);
    expect(DEGREE_MESSAGES.graduationYearFuture).toBe('graduation_year must be in the past, for example 2014');
  });
});

describe('degreeUpdateBody (docs/reference/API-FACTS.md §11.7)', () => {
  const ctx = { version: 'v2026.1' as ApiVersion, today: TODAY };
  const ukStored = valueOf(UK);
  const nonUkStored = valueOf(NON_UK);

  it('changes only the keys sent, with uuids following the codes', () => {
    const r = degreeUpdateBody({ subject: '100346', grade: '01' }, ukStored, ctx);
    expect(r.ok && r.value).toEqual({
      ...ukStored,
      subject: '100346',
      subject_uuid: valueOf({ ...UK, subject: '100346' }).subject_uuid,
      grade: '01',
      grade_uuid: '8741765a-13d8-4550-a413-c5a860a59d25',
    });
    expect(degreeUpdateBody({ graduation_year: 2012 }, nonUkStored, ctx)).toEqual({
      ok: true,
      value: { ...nonUkStored, graduation_year: 2012 },
    });
  });

  it('re-decides UK/non-UK from the request when a degree type is sent', () => {
    const toNonUk = degreeUpdateBody({ non_uk_degree: '051', country: 'FR' }, ukStored, ctx);
    expect(toNonUk.ok && toNonUk.value).toMatchObject({
      uk_degree: null,
      non_uk_degree: '051',
      country: 'FR',
      institution: null,
      institution_uuid: null,
    });
    const toUk = degreeUpdateBody({ uk_degree: '083' }, { ...nonUkStored, grade: '02', grade_uuid: null }, ctx);
    expect(toUk.ok && toUk.value).toMatchObject({
      uk_degree: '083',
      non_uk_degree: null,
      country: null,
      institution: null,
      institution_uuid: OTHER_UK_INSTITUTION_UUID,
    });
  });

  it('validates the merged degree', () => {
    expect(degreeUpdateBody({ subject: null }, ukStored, ctx)).toEqual({ ok: false, errors: [DEGREE_MESSAGES.subjectMissing] });
    expect(degreeUpdateBody({ uk_degree: '083' }, nonUkStored, ctx)).toEqual({ ok: false, errors: [DEGREE_MESSAGES.gradeMissing] });
  });
});

describe('degree duplicates (docs/reference/API-FACTS.md §9.2)', () => {
  const a = valueOf(UK);

  it('builds a key from the non-blank comparison fields', () => {
    expect(degreeDuplicateKey(a)).toBe(degreeDuplicateKey({ ...a, institution: '0001' } as DegreeInput));
    expect(degreeDuplicateKey(a)).not.toBe(degreeDuplicateKey({ ...a, grade: '01' }));
    expect(
      degreeDuplicateKey({ subject: null, graduation_year: null, country: null, uk_degree: null, non_uk_degree: null, grade: null }),
    ).toBe('');
  });

  it('compares only the incoming degree’s non-blank values', () => {
    expect(degreesEqualOnNonBlank(a, a)).toBe(true);
    expect(degreesEqualOnNonBlank({ ...a, grade: null }, a)).toBe(true);
    expect(degreesEqualOnNonBlank(a, { ...a, grade: null })).toBe(false);
    expect(degreesEqualOnNonBlank({ ...a, graduation_year: 2004 }, a)).toBe(false);
    const empty = { subject: null, graduation_year: null, country: null, uk_degree: null, non_uk_degree: null, grade: null };
    expect(degreesEqualOnNonBlank(empty, a)).toBe(true);
  });
});
