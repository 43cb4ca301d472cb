import type { ApiVersion } from '@app/trainees/record';
import { createBody } from '../testing/bodies';

/**
 * The POST /trainees request examples of the shipped OpenAPI documents
 * (docs/reference/openapi/v2025.0.yaml and v2026.1.yaml,
 * paths./api/{api_version}/trainees.post.requestBody.content.application/json.example), copied
 * verbatim. The published examples are meant to be accepted, so each must validate with
 * today = 2026-11-22, except the v2026.1 one's `iqts_country`, which its non-iQTS route refuses
 * (docs/reference/API-FACTS.md §6.3; the served document drops it, ../openapi/examples.ts).
 */
const V2025_0_EXAMPLE = {
  data: {
    first_names: 'John',
    middle_names: 'Ryan',
    last_name: 'Doe',
    date_of_birth: '1990-01-01',
    sex: '11',
    email: 'john.doe@example.com',
    trn: '123456',
    training_route: '11',
    itt_start_date: '2025-08-01',
    itt_end_date: '2027-07-31',
    diversity_disclosure: 'diversity_disclosed',
    course_subject_one: '100346',
    study_mode: '63',
    nationality: 'GB',
    itt_aim: '202',
    itt_qualification_aim: '001',
    course_year: '2012',
    course_age_range: '13915',
    fund_code: '2',
    funding_method: '6',
    statsagency_id: '0310261553101',
    previous_last_name: 'Smith',
    trainee_start_date: '2025-08-01',
    disability1: '58',
    disability2: '57',
    degrees_attributes: [
      {
        grade: '02',
        subject: '100425',
        institution: '0116',
        uk_degree: '083',
        graduation_year: '2003-06-01',
      },
    ],
    placements_attributes: [
      {
        urn: '900020',
      },
    ],
    provider_trainee_id: '99157234/2/01',
    pg_apprenticeship_start_date: '2024-03-11',
    application_id: 1392334,
    lead_partner_ukprn: '65782432',
    employing_school_urn: '429929',
    lead_partner_urn: '459283',
    course_subject_two: '101410',
    course_subject_three: '100366',
    ethnicity: '142',
  },
};

const V2026_1_EXAMPLE = {
  data: {
    first_names: 'John',
    middle_names: 'Ryan',
    last_name: 'Doe',
    date_of_birth: '1990-01-01',
    sex: '11',
    email: 'john.doe@example.com',
    trn: '123456',
    training_route: '11',
    itt_start_date: '2025-08-01',
    itt_end_date: '2027-07-31',
    diversity_disclosure: 'diversity_disclosed',
    course_subject_1: '100346',
    study_mode: '63',
    nationality: 'GB',
    itt_aim: '202',
    itt_qualification_aim: '001',
    course_year: '2012',
    course_age_range: '13918',
    fund_code: '2',
    funding_method: '6',
    statsagency_id: '0310261553101',
    previous_last_name: 'Smith',
    trainee_start_date: '2025-08-01',
    disability1: '58',
    disability2: '57',
    degrees_attributes: [
      {
        grade: '02',
        subject: '100425',
        institution: '0116',
        uk_degree: '083',
        graduation_year: '2003-06-01',
      },
    ],
    placements_attributes: [
      {
        urn: '900020',
      },
    ],
    provider_trainee_id: '99157234/2/01',
    pg_apprenticeship_start_date: '2026-03-11',
    application_id: 6916785,
    training_partner_ukprn: '29542999',
    employing_school_urn: '883876',
    training_partner_urn: '660776',
    course_subject_2: '101410',
    course_subject_3: '100366',
    ethnicity: '142',
    iqts_country: 'LS',
  },
};

const TODAY = '2026-11-22';

function validate(version: ApiVersion, body: { data: Record<string, unknown> }) {
  return createBody(body.data, { version, today: TODAY });
}

describe('the OpenAPI POST /trainees request examples', () => {
  it('v2025.0 example validates', () => {
    const result = validate('v2025.0', V2025_0_EXAMPLE);
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) return;
    expect(result.value.details).toMatchObject({
      first_names: 'John',
      middle_names: 'Ryan',
      last_name: 'Doe',
      training_route: '11',
      course_level: 'undergrad',
      course_qualification: 'QTS',
      // 13915 (ages 7–11) is primary: subject 1 becomes primary teaching, the others follow (docs/reference/API-FACTS.md §6.6)
      course_age_range: '13915',
      course_education_phase: 'primary',
      course_subject_1: '100511',
      course_subject_2: '100346',
      course_subject_3: '101410',
      course_min_age: 7,
      course_max_age: 11,
      course_year: 2012,
      itt_aim: '202',
      itt_qualification_aim: '001',
      ethnicity: '142',
      ethnic_group: 'mixed_ethnic_group',
      ethnic_background: 'Black Caribbean and White',
      disability_disclosure: 'disabled',
      diversity_disclosure: 'diversity_disclosed',
      disabilities: { disability1: '58', disability2: '57' },
      nationality: 'GB',
      application_id: 1392334,
      employing_school_urn: '429929',
      training_partner_urn: '459283',
      training_partner_ukprn: null,
      iqts_country: null,
      trainee_start_date: '2025-08-01',
      pg_apprenticeship_start_date: '2024-03-11',
    });
    expect(result.value.placements).toEqual([
      { urn: '900020', name: 'Establishment does not have a URN', postcode: null, address: null, school_id: null },
    ]);
    expect(result.value.degrees).toEqual([
      {
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
      },
    ]);
  });

  it('v2026.1 example validates without its iqts_country, which route 11 refuses (docs/reference/API-FACTS.md §6.3)', () => {
    expect(validate('v2026.1', V2026_1_EXAMPLE)).toEqual({
      ok: false,
      errors: ['iqts_country must be blank'],
      problems: expect.any(Array),
    });
    const { iqts_country: _refused, ...withoutIqts } = V2026_1_EXAMPLE.data;
    const result = validate('v2026.1', { data: withoutIqts });
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) return;
    expect(result.value.details).toMatchObject({
      training_route: '11',
      course_age_range: '13918',
      course_education_phase: 'secondary',
      course_subject_1: '100346',
      course_subject_2: '101410',
      course_subject_3: '100366',
      course_year: 2012,
      application_id: 6916785,
      employing_school_urn: '883876',
      training_partner_urn: '660776',
      training_partner_ukprn: null,
      iqts_country: null,
      pg_apprenticeship_start_date: '2026-03-11',
    });
    expect(result.value.placements).toHaveLength(1);
    expect(result.value.degrees).toHaveLength(1);
  });

  it('each example fails in the other version', () => {
    expect(validate('v2026.1', V2025_0_EXAMPLE)).toMatchObject({
      ok: false,
      errors: expect.arrayContaining(["course_subject_1 can't be blank"]),
    });
    expect(validate('v2025.0', V2026_1_EXAMPLE)).toMatchObject({
      ok: false,
      errors: expect.arrayContaining(["course_subject_one can't be blank"]),
    });
  });
});
