import type { TraineeDetails, ApiVersion } from '@app/trainees/record';
import { createBody, updateBody } from '../testing/bodies';
import { payload, TODAY } from '../testing/trainee-payload';

const CREATE_V2026 = payload('v2026.1', {
  course_subject_2: '100403',
  ethnicity: '142',
  nationality: 'FR',
  disability1: '58',
  training_initiative: '026',
  training_partner_urn: '660776',
  employing_school_urn: '883876',
});

const DEGREE = { grade: '02', subject: '100425', institution: '0116', uk_degree: '083', graduation_year: '2003' };

function stored(input: Record<string, unknown> = CREATE_V2026, version: ApiVersion = 'v2026.1', today = TODAY): TraineeDetails {
  const result = createBody(input, { version, today });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value.details;
}

function update(input: Record<string, unknown>, from: TraineeDetails = stored(), version: ApiVersion = 'v2026.1', opts = {}) {
  return updateBody(input, from, { version, today: TODAY }, opts);
}

function changesOf(input: Record<string, unknown>, from?: TraineeDetails, version?: ApiVersion): Partial<TraineeDetails> {
  const result = update(input, from, version);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value.changes;
}

function errorsOf(input: Record<string, unknown>, from?: TraineeDetails, version?: ApiVersion, opts = {}): string[] {
  const result = update(input, from, version, opts);
  return result.ok ? [] : result.errors;
}

describe('updateBody: merge semantics (docs/reference/API-FACTS.md §7.1)', () => {
  it('applies a single field and reports exactly what changed', () => {
    const result = update({ first_names: '  Grace  ' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.changes).toEqual({ first_names: 'Grace' });
    expect(result.value.details).toEqual({ ...stored(), first_names: 'Grace' });
  });

  it('re-validates the merged record with the create rules', () => {
    expect(errorsOf({ first_names: 'x'.repeat(61) })).toEqual(['first_names is too long (maximum is 60 characters)']);
    expect(errorsOf({ course_subject_2: '100346' })).toEqual(['course_subject_2 might contain duplicate values']);
    expect(errorsOf({ itt_end_date: '2026-08-01' })).toEqual(['itt_end_date must be after itt_start_date']);
  });

  it('lets stored data fail an unrelated update', () => {
    const old = stored(
      { ...CREATE_V2026, training_initiative: undefined, itt_start_date: '2016-09-01', itt_end_date: '2018-07-31' },
      'v2026.1',
      '2017-01-10',
    );
    expect(errorsOf({ first_names: 'Grace' }, old)).toEqual(['trainee_start_date Cannot be more than 10 years in the past']);
  });

  it('answers an update with nothing to change with no changes', () => {
    expect(changesOf({ first_names: 'Ada' })).toEqual({});
    expect(changesOf({ trn: '1234567', state: 'awarded', ethnic_group: 'white_ethnic_group', ethnic_background: 'Irish' })).toEqual({});
  });

  it('ignores degrees_attributes and placements_attributes (§7.3)', () => {
    expect(changesOf({ degrees_attributes: [{ subject: 'x' }], placements_attributes: [{ urn: 'x' }], first_names: 'Grace' })).toEqual({
      first_names: 'Grace',
    });
  });

  it('rejects a missing or empty data', () => {
    expect(update({})).toEqual({ ok: false, errors: ['Param is missing or the value is empty or invalid: data'] });
  });
});

describe('null and empty values (docs/reference/API-FACTS.md §7.4)', () => {
  it('null leaves a field unchanged', () => {
    expect(changesOf({ first_names: null, email: null, training_route: null, itt_aim: null, course_year: null })).toEqual({});
  });

  it('"" is applied to fields stored as sent', () => {
    expect(errorsOf({ first_names: '' })).toEqual(["first_names can't be blank"]);
    expect(errorsOf({ sex: '' })).toEqual(["sex can't be blank"]);
    expect(errorsOf({ fund_code: '' })).toEqual(["fund_code can't be blank"]);
    expect(changesOf({ middle_names: '' })).toEqual({});
  });

  it('"" behaves like absent for re-derived codes', () => {
    expect(changesOf({ training_route: '', course_subject_1: '', study_mode: '', nationality: '', training_initiative: '' })).toEqual({});
  });

  it('ethnicity null or "" means not provided', () => {
    for (const value of [null, '']) {
      expect(changesOf({ ethnicity: value })).toEqual({
        ethnicity: '997',
        ethnic_group: 'not_provided_ethnic_group',
        ethnic_background: 'Not provided',
      });
    }
  });

  it('course subjects 2 and 3 are cleared by null or ""', () => {
    expect(changesOf({ course_subject_2: null })).toEqual({ course_subject_2: null });
    expect(changesOf({ course_subject_2: '' })).toEqual({ course_subject_2: null });
  });
});

describe('disabilities, nationality, derived values (docs/reference/API-FACTS.md §7.5, §7.6, §7.9)', () => {
  it('merges disabilities by key and recomputes the disclosure', () => {
    expect(changesOf({ disability2: '57' })).toEqual({ disabilities: { disability1: '58', disability2: '57' } });
    expect(changesOf({ disability1: '95' })).toEqual({ disabilities: { disability1: '95' }, disability_disclosure: 'no_disability' });
    expect(changesOf({ disability1: null })).toEqual({ disabilities: {}, disability_disclosure: 'disability_not_provided' });
    expect(errorsOf({ disability2: '58' })).toEqual(['disabilities contain duplicate values']);
  });

  it('replaces the nationality', () => {
    expect(changesOf({ nationality: 'JE' })).toEqual({ nationality: 'GB' });
  });

  it('keeps derived values computed from the merged record, not from the request alone', () => {
    const d = stored();
    expect(d.diversity_disclosure).toBe('diversity_disclosed');
    expect(d.training_initiative).toBe('026');
    expect(changesOf({ first_names: 'Grace' })).toEqual({ first_names: 'Grace' });
    const primary = stored({ ...CREATE_V2026, course_age_range: '13915', course_subject_1: '100511' });
    expect(primary.course_education_phase).toBe('primary');
    expect(changesOf({ last_name: 'King' }, primary)).toEqual({ last_name: 'King' });
    expect(changesOf({ course_age_range: '13918', course_subject_1: '100346' }, primary)).toEqual({
      course_age_range: '13918',
      course_subject_1: '100346',
      course_education_phase: 'secondary',
      course_min_age: 11,
      course_max_age: 16,
    });
  });

  it('recomputes the veterans initiative from funding_method C', () => {
    const c = stored({ ...CREATE_V2026, course_subject_1: '100403', course_subject_2: undefined, fund_code: '7', funding_method: 'C' });
    expect(c.training_initiative).toBeNull();
    expect(changesOf({ funding_method: '6' }, c)).toEqual({ funding_method: '6' });
  });
});

describe('training partner, school and iQTS on update (docs/reference/API-FACTS.md §6.8, §7.7)', () => {
  it('keeps partner and school when their keys are absent', () => {
    const d = stored();
    expect(d).toMatchObject({ training_partner_urn: '660776', employing_school_urn: '883876' });
    expect(changesOf({ first_names: 'Grace' })).toEqual({ first_names: 'Grace' });
  });

  it('applies partner and school keys when present', () => {
    expect(changesOf({ training_partner_urn: '900000' })).toEqual({ training_partner_urn: null });
    expect(changesOf({ training_partner_ukprn: '10000001' })).toEqual({ training_partner_urn: null, training_partner_ukprn: '10000001' });
    expect(changesOf({ employing_school_urn: null })).toEqual({ employing_school_urn: null });
    expect(changesOf({ lead_partner_urn: '123456' }, undefined, 'v2025.0')).toEqual({ training_partner_urn: '123456' });
    expect(changesOf({ lead_partner_urn: '123456' })).toEqual({});
  });

  it('v2026.1: moving to iQTS needs iqts_country; moving away clears it', () => {
    expect(errorsOf({ training_route: '15' }, undefined, 'v2026.1', { hasDegrees: true })).toEqual(["iqts_country can't be blank"]);
    expect(changesOf({ training_route: '15', iqts_country: 'FR' })).toMatchObject({
      training_route: '15',
      iqts_country: 'FR',
      course_level: 'postgrad',
    });
    const iqts = stored({ ...CREATE_V2026, training_route: '15', iqts_country: 'LS', degrees_attributes: [DEGREE] });
    expect(iqts.iqts_country).toBe('LS');
    expect(changesOf({ first_names: 'Grace' }, iqts)).toEqual({ first_names: 'Grace' });
    expect(changesOf({ training_route: '11' }, iqts)).toEqual({ training_route: '11', iqts_country: null, course_level: 'undergrad' });
  });

  it('applies the degree rule only when told the trainee has no degree', () => {
    expect(errorsOf({ training_route: '12' })).toEqual([]);
    expect(errorsOf({ training_route: '12' }, undefined, 'v2026.1', { hasDegrees: false })).toEqual([
      'degrees_attributes must be entered if specifying a postgraduate training_route',
    ]);
  });

  it('uses the version’s field names', () => {
    const v2025 = stored(
      { ...CREATE_V2026, course_subject_1: undefined, course_subject_2: undefined, course_subject_one: '100346' },
      'v2025.0',
    );
    expect(changesOf({ course_subject_two: '100403' }, v2025, 'v2025.0')).toEqual({ course_subject_2: '100403' });
    expect(changesOf({ course_subject_2: '100403' }, v2025, 'v2025.0')).toEqual({});
    expect(errorsOf({ course_subject_two: '100346' }, v2025, 'v2025.0')).toEqual(['course_subject_two might contain duplicate values']);
  });
});
