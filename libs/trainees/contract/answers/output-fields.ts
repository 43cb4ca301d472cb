/**
 * The output fields of trainees, placements and degrees: for each, its canonical name, its value
 * from the domain's record and its JSON Schema, and the versions that answer it
 * (docs/spec/trainee-records-api.md "Trainee object", "Version-dependent fields", "Placement
 * object", "Degree object"; docs/DESIGN.md rulings 3, 6, 10; docs/reference/API-FACTS.md §10.4,
 * §11.6, §13). The serializers and schemas of each version are made from these tables
 * (trainee.output.ts).
 */
import { REFERENCE_LISTS, WITHDRAWAL_REASONS, type Degree, type Placement, type RefListName } from '@app/trainees/record';
import { TRAINEE_STATES, type Trainee } from '@app/trainees/decider';
import { versionFieldName } from '@app/trainees/record';
import { API_VERSIONS, type ApiVersion } from '@app/trainees/record';

/** A JSON Schema (OpenAPI 3.1) object. */
export type JsonSchema = Record<string, unknown>;

/** One field of an answer: its canonical name, value and schema; `only` limits it to some versions. */
export interface OutputField<T> {
  /**
   * Canonical name; the version's name comes from the field-name table
   * (libs/contract/src/field-names.ts) unless `asIs`.
   */
  name: string;
  value: (record: T) => unknown;
  schema: JsonSchema;
  only?: readonly ApiVersion[];
  /** Answered under this very name in every version (the contract's table lists it for all). */
  asIs?: boolean;
}

const V2025_0: readonly ApiVersion[] = [API_VERSIONS[0]];

const WITHDRAWAL_REASON_CODES: readonly string[] = [...new Set(WITHDRAWAL_REASONS.map((r) => r.code))];

const codes = (list: RefListName): string[] => (REFERENCE_LISTS[list] as readonly { code: string }[]).map((e) => e.code);

const str = (description?: string, extra: JsonSchema = {}): JsonSchema => ({
  type: 'string',
  ...(description ? { description } : {}),
  ...extra,
});
const nstr = (description?: string, extra: JsonSchema = {}): JsonSchema => ({
  type: ['string', 'null'],
  ...(description ? { description } : {}),
  ...extra,
});
const nenum = (values: readonly string[], description?: string): JsonSchema => ({
  type: ['string', 'null'],
  enum: [...values, null],
  ...(description ? { description } : {}),
});
const date = (description?: string): JsonSchema => str(description, { format: 'date' });
const ndate = (description?: string): JsonSchema => nstr(description, { format: 'date' });
const instant = (description?: string): JsonSchema => str(description, { format: 'date-time' });
const ninstant = (description?: string): JsonSchema => nstr(description, { format: 'date-time' });
const bool = (description?: string): JsonSchema => ({ type: 'boolean', ...(description ? { description } : {}) });

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

const partnerNotApplicable = (t: Trainee): boolean => t.details.training_partner_urn === null && t.details.training_partner_ukprn === null;

/** The trainee's fields in answer order (disability keys are added after `disability2`). */
export const TRAINEE_FIELDS: readonly OutputField<Trainee>[] = [
  {
    name: 'trainee_id',
    value: (t) => t.trainee_id,
    schema: str('The trainee id: 24 random base58 characters.', { example: 'X7CbWEXaTtWYUsfq54gnfQuN' }),
  },
  { name: 'provider_trainee_id', value: (t) => t.details.provider_trainee_id, schema: nstr("The provider's own id.") },
  { name: 'first_names', value: (t) => t.details.first_names, schema: str(undefined, { maxLength: 60 }) },
  { name: 'middle_names', value: (t) => t.details.middle_names, schema: nstr(undefined, { maxLength: 60 }) },
  { name: 'last_name', value: (t) => t.details.last_name, schema: str(undefined, { maxLength: 60 }) },
  { name: 'previous_last_name', value: (t) => t.details.previous_last_name, schema: nstr() },
  { name: 'date_of_birth', value: (t) => t.details.date_of_birth, schema: date() },
  { name: 'email', value: (t) => t.details.email, schema: str() },
  { name: 'created_at', value: (t) => t.created_at, schema: instant('UTC, milliseconds.') },
  { name: 'updated_at', value: (t) => t.updated_at, schema: instant('UTC, milliseconds.') },
  { name: 'training_route', value: (t) => t.details.training_route, schema: { type: 'string', enum: codes('training_route') } },
  { name: 'sex', value: (t) => t.details.sex, schema: { type: 'string', enum: codes('sex') } },
  {
    name: 'diversity_disclosure',
    value: (t) => t.details.diversity_disclosure,
    schema: { type: 'string', enum: ['diversity_disclosed', 'diversity_not_disclosed'] },
  },
  { name: 'ethnic_group', value: (t) => t.details.ethnic_group, schema: { type: 'string', enum: codes('ethnic_group') } },
  { name: 'ethnic_background', value: (t) => t.details.ethnic_background, schema: str('Derived from ethnicity.') },
  { name: 'additional_ethnic_background', value: (t) => t.details.additional_ethnic_background, schema: nstr() },
  {
    name: 'ethnicity',
    value: (t) => t.details.ethnicity,
    schema: {
      type: 'string',
      enum: [...new Set(REFERENCE_LISTS.ethnicity.map((e) => e.output_code))],
      description: '997 when not provided.',
    },
  },
  {
    name: 'disability_disclosure',
    value: (t) => t.details.disability_disclosure,
    schema: { type: 'string', enum: ['disabled', 'no_disability', 'disability_not_provided'] },
  },
  { name: 'disability1', value: (t) => t.details.disabilities.disability1 ?? null, schema: nstr('As sent (codes are not checked).') },
  { name: 'disability2', value: (t) => t.details.disabilities.disability2 ?? null, schema: nstr('As sent (codes are not checked).') },
  {
    name: 'nationality',
    value: (t) => t.details.nationality,
    schema: nenum([...new Set(REFERENCE_LISTS.nationality.map((e) => e.output_code))], 'British territories are answered as GB.'),
  },
  { name: 'itt_start_date', value: (t) => t.details.itt_start_date, schema: date() },
  { name: 'itt_end_date', value: (t) => t.details.itt_end_date, schema: date() },
  { name: 'trainee_start_date', value: (t) => t.details.trainee_start_date, schema: ndate() },
  { name: 'outcome_date', value: (t) => t.outcome_date, schema: ndate('When the QTS/EYTS standards were met.') },
  { name: 'course_itt_start_date', value: (t) => t.details.itt_start_date, schema: date() },
  { name: 'pg_apprenticeship_start_date', value: (t) => t.details.pg_apprenticeship_start_date, schema: ndate() },
  {
    name: 'trn',
    value: (t) => t.trn,
    schema: nstr('Teacher reference number, null until the registry issues one.', { pattern: '^\\d{7}$' }),
  },
  { name: 'submitted_for_trn_at', value: (t) => t.submitted_for_trn_at, schema: ninstant() },
  { name: 'state', value: (t) => t.state, schema: { type: 'string', enum: [...TRAINEE_STATES] } },
  { name: 'defer_date', value: (t) => t.defer_date, schema: ndate() },
  { name: 'defer_reason', value: (t) => t.defer_reason, schema: nstr(undefined, { maxLength: 500 }) },
  { name: 'reinstate_date', value: (t) => t.reinstate_date, schema: ndate() },
  {
    name: 'recommended_for_award_at',
    // Without a fraction of a second, as the reference answers it (docs/reference/API-FACTS.md §13.4).
    value: (t) => (t.recommended_for_award_at ? t.recommended_for_award_at.replace(/\.\d+Z$/, 'Z') : null),
    schema: ninstant('UTC, whole seconds.'),
  },
  { name: 'awarded_at', value: (t) => t.awarded_at, schema: ninstant() },
  { name: 'course_min_age', value: (t) => t.details.course_min_age, schema: { type: ['integer', 'null'] } },
  { name: 'course_max_age', value: (t) => t.details.course_max_age, schema: { type: ['integer', 'null'] } },
  { name: 'course_age_range', value: (t) => t.details.course_age_range, schema: nenum(codes('course_age_range')) },
  {
    name: 'course_education_phase',
    value: (t) => t.details.course_education_phase,
    schema: { type: 'string', enum: ['primary', 'secondary', 'early_years'] },
  },
  { name: 'course_qualification', value: (t) => t.details.course_qualification, schema: { type: 'string', enum: ['QTS', 'EYTS'] } },
  { name: 'course_title', value: (t) => t.details.course_title, schema: nstr() },
  { name: 'course_level', value: (t) => t.details.course_level, schema: { type: 'string', enum: ['undergrad', 'postgrad'] } },
  { name: 'course_uuid', value: () => null, schema: nstr(undefined, { format: 'uuid' }) },
  { name: 'study_mode', value: (t) => t.details.study_mode, schema: nenum(codes('study_mode')) },
  {
    name: 'course_year',
    value: (t) => t.details.course_year,
    schema: { type: ['integer', 'string', 'null'], description: 'An integer; a value v2025.0 accepted as text is answered as sent.' },
  },
  { name: 'training_initiative', value: (t) => t.details.training_initiative, schema: nenum(codes('training_initiative')) },
  { name: 'additional_training_initiative', value: (t) => t.details.additional_training_initiative, schema: nstr() },
  { name: 'applying_for_bursary', value: (t) => fundingFlags(t.details.funding_method).bursary, schema: bool() },
  { name: 'applying_for_scholarship', value: (t) => fundingFlags(t.details.funding_method).scholarship, schema: bool() },
  { name: 'applying_for_grant', value: (t) => fundingFlags(t.details.funding_method).grant, schema: bool() },
  {
    name: 'bursary_tier',
    value: (t) => fundingFlags(t.details.funding_method).tier,
    schema: nenum(['tier_one', 'tier_two', 'tier_three']),
  },
  { name: 'ebacc', value: () => false, schema: bool() },
  { name: 'region', value: () => null, schema: nstr() },
  { name: 'fund_code', value: (t) => t.details.fund_code, schema: nenum(codes('fund_code')) },
  { name: 'funding_method', value: (t) => t.details.funding_method, schema: nenum(codes('funding_method')) },
  { name: 'itt_aim', value: (t) => t.details.itt_aim, schema: nenum(codes('itt_aim')) },
  { name: 'itt_qualification_aim', value: (t) => t.details.itt_qualification_aim, schema: nenum(codes('itt_qualification_aim')) },
  { name: 'ni_number', value: (t) => t.details.ni_number, schema: nstr() },
  { name: 'ukprn', value: (t) => t.ukprn, schema: str("The provider's UKPRN.") },
  { name: 'employing_school_urn', value: (t) => t.details.employing_school_urn, schema: nstr() },
  { name: 'employing_school_not_applicable', value: (t) => t.details.employing_school_urn === null, schema: bool() },
  { name: 'submission_ready', value: () => true, schema: bool() },
  { name: 'commencement_status', value: () => null, schema: nstr() },
  { name: 'discarded_at', value: () => null, schema: ninstant() },
  { name: 'placement_detail', value: () => null, schema: nstr() },
  // The contract's trainee table lists iqts_country for every version (v2025.0 answers null).
  { name: 'iqts_country', value: (t) => t.details.iqts_country, schema: nenum(codes('country')), asIs: true },
  { name: 'record_source', value: (t) => t.record_source, schema: str(undefined, { example: 'api' }) },
  { name: 'created_from_legacy', value: () => false, schema: bool() },
  { name: 'additional_legacy_data', value: () => null, schema: { type: 'null' } },
  { name: 'statsagency_id', value: (t) => t.details.statsagency_id, schema: nstr() },
  { name: 'created_from_statsagency', value: () => false, schema: bool() },
  { name: 'statsagency_updated_at', value: () => null, schema: ninstant() },
  { name: 'statsagency_editable', value: () => false, schema: bool() },
  {
    name: 'withdrawal_future_interest',
    value: (t) => t.withdrawal?.future_interest ?? null,
    schema: nenum(codes('withdrawal_future_interest')),
  },
  { name: 'withdrawal_trigger', value: (t) => t.withdrawal?.trigger ?? null, schema: nenum(codes('withdrawal_trigger')) },
  // The contract lists withdrawal_reasons for every version; v2025.0 also answers them as withdraw_reasons.
  {
    name: 'withdrawal_reasons',
    value: (t) => t.withdrawal?.reasons ?? null,
    schema: { type: ['array', 'null'], items: { type: 'string', enum: WITHDRAWAL_REASON_CODES } },
    asIs: true,
  },
  { name: 'withdrawal_another_reason', value: (t) => t.withdrawal?.another_reason ?? null, schema: nstr() },
  { name: 'application_id', value: (t) => t.details.application_id, schema: { type: ['integer', 'null'] } },
  { name: 'slug_sent_to_registry_at', value: () => null, schema: ninstant() },
  { name: 'course_subject_1', value: (t) => t.details.course_subject_1, schema: nenum(codes('course_subject')) },
  { name: 'course_subject_2', value: (t) => t.details.course_subject_2, schema: nenum(codes('course_subject')) },
  { name: 'course_subject_3', value: (t) => t.details.course_subject_3, schema: nenum(codes('course_subject')) },
  { name: 'withdrawal_date', value: (t) => t.withdrawal?.date ?? null, schema: ndate() },
  { name: 'training_partner_not_applicable', value: partnerNotApplicable, schema: bool() },
  { name: 'training_partner_ukprn', value: (t) => t.details.training_partner_ukprn, schema: nstr() },
  { name: 'training_partner_urn', value: (t) => t.details.training_partner_urn, schema: nstr() },
  {
    name: 'withdrawal_safeguarding_concern_reasons',
    value: (t) => t.withdrawal?.safeguarding_concern_reasons ?? null,
    schema: nstr(),
    only: ['v2026.1'],
  },
  {
    name: 'withdrawal_reasons',
    value: (t) => t.withdrawal?.reasons ?? null,
    schema: { type: ['array', 'null'], items: { type: 'string', enum: WITHDRAWAL_REASON_CODES } },
    only: V2025_0,
  },
  { name: 'expected_end_date', value: (t) => t.details.itt_end_date, schema: ndate(), only: V2025_0 },
  { name: 'bursary_level', value: (t) => t.details.funding_method, schema: nstr(), only: V2025_0 },
  { name: 'course_study_mode', value: (t) => t.details.study_mode, schema: nstr(), only: V2025_0 },
  {
    name: 'statsagency_disabilities',
    value: (t) => ({ disability1: t.details.disabilities.disability1 ?? null, disability2: t.details.disabilities.disability2 ?? null }),
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['disability1', 'disability2'],
      properties: { disability1: { type: ['string', 'null'] }, disability2: { type: ['string', 'null'] } },
    },
    only: V2025_0,
  },
];

export const PLACEMENT_FIELDS: readonly OutputField<Placement>[] = [
  { name: 'placement_id', value: (p) => p.placement_id, schema: str('The placement id.', { example: 'Lm3Vr7cA9pQwXz2KbN4sTy8E' }) },
  { name: 'urn', value: (p) => p.urn, schema: nstr('School URN, six digits.', { example: '100001' }) },
  { name: 'name', value: (p) => p.name, schema: nstr(undefined, { example: 'Oak Primary School' }) },
  { name: 'postcode', value: (p) => p.postcode, schema: nstr(undefined, { example: 'GU1 6FR' }) },
  {
    name: 'address',
    value: (p) => p.address,
    schema: nstr(
      'Derived: `URN <urn>, <town>, <postcode>` for a school of the directory, else `URN <urn>, <postcode>` (parts left out when empty); null for the not-applicable URNs.',
      { example: 'URN 100001, Guildford, GU1 6FR' },
    ),
  },
  { name: 'created_at', value: (p) => p.created_at, schema: instant() },
  { name: 'updated_at', value: (p) => p.updated_at, schema: instant() },
];

export const DEGREE_FIELDS: readonly OutputField<Degree>[] = [
  { name: 'degree_id', value: (d) => d.degree_id, schema: str('The degree id.', { example: 'Qw3Er5Ty7Ui9Op1As2Df4Gh6' }) },
  { name: 'uk_degree', value: (d) => d.uk_degree, schema: nenum(codes('degree_type')) },
  { name: 'non_uk_degree', value: (d) => d.non_uk_degree, schema: nenum(codes('degree_type')) },
  { name: 'subject', value: (d) => d.subject, schema: nenum(codes('degree_subject')) },
  {
    name: 'institution',
    value: (d) => d.institution,
    schema: nenum(codes('degree_institution'), 'null for "Other UK institution" and for non-UK degrees.'),
  },
  { name: 'grade', value: (d) => d.grade, schema: nenum(codes('degree_grade')) },
  { name: 'country', value: (d) => d.country, schema: nenum(codes('country'), 'null for a UK degree.') },
  { name: 'graduation_year', value: (d) => d.graduation_year, schema: { type: ['integer', 'null'], example: 2003 } },
  { name: 'other_grade', value: (d) => d.other_grade, schema: nstr() },
  { name: 'institution_uuid', value: (d) => d.institution_uuid, schema: nstr(undefined, { format: 'uuid' }) },
  { name: 'uk_degree_uuid', value: (d) => d.uk_degree_uuid, schema: nstr(undefined, { format: 'uuid' }) },
  { name: 'subject_uuid', value: (d) => d.subject_uuid, schema: nstr(undefined, { format: 'uuid' }) },
  { name: 'grade_uuid', value: (d) => d.grade_uuid, schema: nstr(undefined, { format: 'uuid' }) },
  { name: 'created_at', value: (d) => d.created_at, schema: instant() },
  { name: 'updated_at', value: (d) => d.updated_at, schema: instant() },
];

/** A field's name in `version`, or null when the version does not answer it. */
function outputName(field: OutputField<unknown>, version: ApiVersion): string | null {
  if (field.only && !field.only.includes(version)) return null;
  return field.asIs ? field.name : versionFieldName(field.name, version);
}

/** The fields `version` answers, with their names in the version. */
export function fieldsOf<T>(fields: readonly OutputField<T>[], version: ApiVersion): readonly (readonly [string, OutputField<T>])[] {
  return fields.flatMap((f) => {
    const name = outputName(f as OutputField<unknown>, version);
    return name === null ? [] : [[name, f] as const];
  });
}
