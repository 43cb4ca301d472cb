import type { ApiVersion, Degree, Placement, Trainee } from '@app/domain';

/**
 * Per-version output of a trainee (docs/spec/trainee-records-api.md "Trainee object" and "Version-dependent fields";
 * docs/DESIGN.md ruling 6: every field of the spec's table for the version, null when empty, flags as
 * real booleans). Placements and degrees are included on single-trainee answers (`nested`) and
 * omitted from list items (ruling 3).
 */
export function serializeTrainee(t: Trainee, version: ApiVersion, opts: { nested: boolean }): Record<string, unknown> {
  const d = t.details;
  const w = t.withdrawal;
  const funding = fundingFlags(d.funding_method);
  const out: Record<string, unknown> = {
    trainee_id: t.trainee_id,
    provider_trainee_id: d.provider_trainee_id,
    first_names: d.first_names,
    middle_names: d.middle_names,
    last_name: d.last_name,
    previous_last_name: d.previous_last_name,
    date_of_birth: d.date_of_birth,
    email: d.email,
    created_at: t.created_at,
    updated_at: t.updated_at,
    training_route: d.training_route,
    sex: d.sex,
    diversity_disclosure: d.diversity_disclosure,
    ethnic_group: d.ethnic_group,
    ethnic_background: d.ethnic_background,
    additional_ethnic_background: d.additional_ethnic_background,
    ethnicity: d.ethnicity,
    disability_disclosure: d.disability_disclosure,
    disability1: d.disabilities.disability1 ?? null,
    disability2: d.disabilities.disability2 ?? null,
    ...d.disabilities,
    nationality: d.nationality,
    itt_start_date: d.itt_start_date,
    itt_end_date: d.itt_end_date,
    trainee_start_date: d.trainee_start_date,
    outcome_date: t.outcome_date,
    course_itt_start_date: d.itt_start_date,
    pg_apprenticeship_start_date: d.pg_apprenticeship_start_date,
    trn: t.trn,
    submitted_for_trn_at: t.submitted_for_trn_at,
    state: t.state,
    defer_date: t.defer_date,
    defer_reason: t.defer_reason,
    reinstate_date: t.reinstate_date,
    // Without a fraction of a second, as the reference answers it (docs/reference/API-FACTS.md §13.4).
    recommended_for_award_at: t.recommended_for_award_at ? t.recommended_for_award_at.replace(/\.\d+Z$/, 'Z') : null,
    awarded_at: t.awarded_at,
    course_min_age: d.course_min_age,
    course_max_age: d.course_max_age,
    course_age_range: d.course_age_range,
    course_education_phase: d.course_education_phase,
    course_qualification: d.course_qualification,
    course_title: d.course_title,
    course_level: d.course_level,
    course_uuid: null,
    study_mode: d.study_mode,
    course_year: d.course_year,
    training_initiative: d.training_initiative,
    additional_training_initiative: d.additional_training_initiative,
    applying_for_bursary: funding.bursary,
    applying_for_scholarship: funding.scholarship,
    applying_for_grant: funding.grant,
    bursary_tier: funding.tier,
    ebacc: false,
    region: null,
    fund_code: d.fund_code,
    funding_method: d.funding_method,
    itt_aim: d.itt_aim,
    itt_qualification_aim: d.itt_qualification_aim,
    ni_number: d.ni_number,
    ukprn: t.ukprn,
    employing_school_urn: d.employing_school_urn,
    employing_school_not_applicable: d.employing_school_urn === null,
    submission_ready: true,
    commencement_status: null,
    discarded_at: null,
    placement_detail: null,
    iqts_country: d.iqts_country,
    record_source: t.record_source,
    created_from_legacy: false,
    additional_legacy_data: null,
    statsagency_id: d.statsagency_id,
    created_from_statsagency: false,
    statsagency_updated_at: null,
    statsagency_editable: false,
    withdrawal_future_interest: w?.future_interest ?? null,
    withdrawal_trigger: w?.trigger ?? null,
    withdrawal_reasons: w?.reasons ?? null,
    withdrawal_another_reason: w?.another_reason ?? null,
    application_id: d.application_id,
    slug_sent_to_registry_at: null,
  };
  const partnerNotApplicable = d.training_partner_urn === null && d.training_partner_ukprn === null;
  if (version === 'v2026.1') {
    Object.assign(out, {
      course_subject_1: d.course_subject_1,
      course_subject_2: d.course_subject_2,
      course_subject_3: d.course_subject_3,
      withdrawal_date: w?.date ?? null,
      training_partner_not_applicable: partnerNotApplicable,
      training_partner_ukprn: d.training_partner_ukprn,
      training_partner_urn: d.training_partner_urn,
      withdrawal_safeguarding_concern_reasons: w?.safeguarding_concern_reasons ?? null,
    });
  } else {
    Object.assign(out, {
      course_subject_one: d.course_subject_1,
      course_subject_two: d.course_subject_2,
      course_subject_three: d.course_subject_3,
      withdraw_date: w?.date ?? null,
      withdraw_reasons: w?.reasons ?? null,
      lead_partner_not_applicable: partnerNotApplicable,
      lead_partner_ukprn: d.training_partner_ukprn,
      lead_partner_urn: d.training_partner_urn,
      expected_end_date: d.itt_end_date,
      bursary_level: d.funding_method,
      course_study_mode: d.study_mode,
      statsagency_disabilities: {
        disability1: d.disabilities.disability1 ?? null,
        disability2: d.disabilities.disability2 ?? null,
      },
    });
  }
  if (opts.nested) {
    out.placements = t.placements.map((p) => serializePlacement(p));
    out.degrees = t.degrees.map(serializeDegree);
  }
  return out;
}

/**
 * A placement's output (docs/reference/API-FACTS.md §10.4). `school_id` (the linked school's id, or null) only with
 * `withSchoolId`: the v2025.0 create-placement response (docs/DESIGN.md ruling 10).
 */
export function serializePlacement(p: Placement, opts: { withSchoolId?: boolean } = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {
    placement_id: p.placement_id,
    urn: p.urn,
    name: p.name,
    postcode: p.postcode,
    address: p.address,
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
  if (opts.withSchoolId) out.school_id = p.school_id ?? null;
  return out;
}

/** A degree's output (docs/reference/API-FACTS.md §11.6). */
export function serializeDegree(d: Degree): Record<string, unknown> {
  return {
    degree_id: d.degree_id,
    uk_degree: d.uk_degree,
    non_uk_degree: d.non_uk_degree,
    subject: d.subject,
    institution: d.institution,
    grade: d.grade,
    country: d.country,
    graduation_year: d.graduation_year,
    other_grade: d.other_grade,
    institution_uuid: d.institution_uuid,
    uk_degree_uuid: d.uk_degree_uuid,
    subject_uuid: d.subject_uuid,
    grade_uuid: d.grade_uuid,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

/** Funding flags derived from funding_method (docs/reference/API-FACTS.md §6.7). */
function fundingFlags(method: string | null): { bursary: boolean; scholarship: boolean; grant: boolean; tier: string | null } {
  switch (method) {
    case '4':
      return { bursary: false, scholarship: true, grant: false, tier: null };
    case '7':
      return { bursary: true, scholarship: false, grant: false, tier: 'tier_one' };
    case '8':
      return { bursary: true, scholarship: false, grant: false, tier: 'tier_two' };
    case '9':
      return { bursary: true, scholarship: false, grant: false, tier: 'tier_three' };
    case 'B':
    case 'C':
    case 'D':
      return { bursary: true, scholarship: false, grant: false, tier: null };
    case 'E':
      return { bursary: false, scholarship: false, grant: true, tier: null };
    default:
      return { bursary: false, scholarship: false, grant: false, tier: null };
  }
}
