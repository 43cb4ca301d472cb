/**
 * The typed fields of the write requests, in canonical names (the v2026.1 names where versions
 * differ, docs/spec/trainee-records-api.md "Version-dependent fields"), as the API's contract
 * (libs/contract) hands them to the domain after the wire checks.
 *
 * One convention for every field: `undefined` = the key was not sent, or its value failed a wire
 * check (a problem then names it); `null` = sent as JSON null; `''` = sent blank (an empty or
 * all-white-space string, `false`, `[]` or `{}`: Ruby's `blank?`, docs/reference/API-FACTS.md §7.4);
 * otherwise the well-formed value: text as sent (a JSON number as its decimal text), dates as
 * `YYYY-MM-DD`, codes as sent (known to the version's code book).
 */

/** A trainee create or update body (docs/reference/API-FACTS.md §6.2). */
export interface TraineeFields {
  first_names?: string | null;
  middle_names?: string | null;
  last_name?: string | null;
  previous_last_name?: string | null;
  date_of_birth?: string | null;
  email?: string | null;
  sex?: string | null;
  nationality?: string | null;
  training_route?: string | null;
  itt_start_date?: string | null;
  itt_end_date?: string | null;
  trainee_start_date?: string | null;
  course_subject_1?: string | null;
  course_subject_2?: string | null;
  course_subject_3?: string | null;
  course_age_range?: string | null;
  study_mode?: string | null;
  ethnicity?: string | null;
  training_initiative?: string | null;
  additional_training_initiative?: string | null;
  /** A code; a JSON number arrives as its text (docs/DESIGN.md ruling 12). */
  itt_aim?: string | null;
  itt_qualification_aim?: string | null;
  /** An integer, or (where the version checks presence only) the trimmed text sent. */
  course_year?: number | string | null;
  fund_code?: string | null;
  funding_method?: string | null;
  ni_number?: string | null;
  /** Never an error (§6.4): a real date as `YYYY-MM-DD`, anything else null. */
  pg_apprenticeship_start_date?: string | null;
  statsagency_id?: string | null;
  provider_trainee_id?: string | null;
  /** A non-negative integer of at most 7 digits. */
  application_id?: number | '' | null;
  employing_school_urn?: string | null;
  training_partner_urn?: string | null;
  training_partner_ukprn?: string | null;
  iqts_country?: string | null;
  /** Every `disabilityN` key sent (§6.7), its code as text, `''` when blank, null when null. */
  disabilities?: Readonly<Record<string, string | null>>;
  /** Nested degrees (create only); each item's own fields. */
  degrees_attributes?: readonly DegreeFields[] | null | '';
  /** Nested placements (create only). */
  placements_attributes?: readonly PlacementFields[] | null | '';
}

/** A degree body, or one item of `degrees_attributes` (docs/reference/API-FACTS.md §11.1). */
export interface DegreeFields {
  uk_degree?: string | null;
  non_uk_degree?: string | null;
  /** A code of the version's degree subjects. */
  subject?: string | null;
  institution?: string | null;
  grade?: string | null;
  /** The year (from a year or a full date, §11.4). */
  graduation_year?: number | null | '';
  country?: string | null;
  other_grade?: string | null;
}

/** A placement body, or one item of `placements_attributes` (docs/reference/API-FACTS.md §10.1). */
export interface PlacementFields {
  /** Six digits. */
  urn?: string | null;
  name?: string | null;
  /** A full UK postcode, trimmed. */
  postcode?: string | null;
}

/** `POST …/defer` (docs/reference/API-FACTS.md §12.3): every rule is a wire check. */
export interface DeferralFields {
  /** `YYYY-MM-DD`. */
  defer_date?: string;
  /** As sent; null when absent or blank. */
  defer_reason?: string | null;
}

/** `POST …/withdraw` (docs/reference/API-FACTS.md §12.4), the date under its canonical name. */
export interface WithdrawalFields {
  /** `YYYY-MM-DD` (the UTC date of a date-time with a zone). */
  withdrawal_date?: string;
  trigger?: string;
  future_interest?: string;
  /** The reasons sent, in order, without repeats. */
  reasons?: readonly string[];
  another_reason?: string | null;
  safeguarding_concern_reasons?: string | null;
}

/** `POST …/recommend-for-qts` (docs/reference/API-FACTS.md §12.5). */
export interface RecommendationFields {
  /** `YYYY-MM-DD`. */
  qts_standards_met_date?: string;
}
