/**
 * The canonical trainee record: every field of every API version under one name (the v2026.1
 * name where the versions differ: the version-dependent fields table of
 * docs/spec/trainee-records-api.md "Trainee object"). The per-version serializers
 * (libs/trainees/contract/answers) rename fields; nothing else does. Dates are `YYYY-MM-DD`;
 * instants are ISO 8601 UTC with milliseconds.
 */

/** The fields a provider sets through create and update (after code mapping and derivation). */
export interface TraineeDetails {
  provider_trainee_id: string | null;
  first_names: string;
  middle_names: string | null;
  last_name: string;
  previous_last_name: string | null;
  date_of_birth: string;
  email: string;
  sex: string;
  /** Output code of the first nationality (British territories → `GB`), or null. */
  nationality: string | null;
  /** Output code (`997` when not provided). */
  ethnicity: string;
  ethnic_group: string;
  ethnic_background: string;
  additional_ethnic_background: string | null;
  diversity_disclosure: string;
  disability_disclosure: string;
  /** `disabilityN` key → code, as sent (merged by key on update, docs/reference/API-FACTS.md §7.5). */
  disabilities: Record<string, string>;
  training_route: string;
  course_qualification: string;
  course_level: string;
  course_education_phase: string;
  course_title: string | null;
  course_subject_1: string | null;
  course_subject_2: string | null;
  course_subject_3: string | null;
  course_age_range: string | null;
  course_min_age: number | null;
  course_max_age: number | null;
  itt_start_date: string;
  itt_end_date: string;
  /** Defaults to itt_start_date (docs/reference/API-FACTS.md §6.3). */
  trainee_start_date: string;
  study_mode: string | null;
  /** Integer in output (v2025.0 accepts any present value; stored as a number when numeric). */
  course_year: number | string | null;
  itt_aim: string | null;
  itt_qualification_aim: string | null;
  fund_code: string | null;
  funding_method: string | null;
  training_initiative: string | null;
  additional_training_initiative: string | null;
  ni_number: string | null;
  pg_apprenticeship_start_date: string | null;
  statsagency_id: string | null;
  employing_school_urn: string | null;
  training_partner_urn: string | null;
  training_partner_ukprn: string | null;
  iqts_country: string | null;
  application_id: number | null;
}

/** A school of the schools directory (the public schools register: URN, name, town, postcode). */
export interface School {
  urn: string;
  name: string;
  town: string | null;
  postcode: string | null;
}

/** A school placement (docs/spec/trainee-records-api.md "Placement object"; docs/reference/API-FACTS.md §10). */
export interface Placement {
  placement_id: string;
  urn: string | null;
  name: string | null;
  postcode: string | null;
  /**
   * Derived from the schools directory when the URN names a known school
   * (`URN <urn>, <town>, <postcode>`, docs/reference/API-FACTS.md §10.3); null otherwise.
   */
  address: string | null;
  /** The linked school's id (its URN as an integer) or null; shown only where the spec says (docs/DESIGN.md ruling 10). */
  school_id: number | null;
  created_at: string;
  updated_at: string;
}

/** A placement as validated, before it has an id and timestamps. */
export type PlacementInput = Pick<Placement, 'urn' | 'name' | 'postcode' | 'address' | 'school_id'>;

/** A previous degree (docs/spec/trainee-records-api.md "Degree object"; docs/reference/API-FACTS.md §11). Codes or null. */
export interface Degree {
  degree_id: string;
  uk_degree: string | null;
  non_uk_degree: string | null;
  subject: string | null;
  institution: string | null;
  grade: string | null;
  country: string | null;
  graduation_year: number | null;
  other_grade: string | null;
  institution_uuid: string | null;
  uk_degree_uuid: string | null;
  subject_uuid: string | null;
  grade_uuid: string | null;
  created_at: string;
  updated_at: string;
}

/** A degree as validated, before it has an id and timestamps. */
export type DegreeInput = Omit<Degree, 'degree_id' | 'created_at' | 'updated_at'>;
