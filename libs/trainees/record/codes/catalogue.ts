/**
 * The coded values a trainee record holds (docs/reference/API-FACTS.md §6.6, §8, §11, §12.4; docs/reference/reference-data/README.md),
 * imported at build time; a code not every version accepts says which (`versions`), the rest per version is the contract's.
 * Lookups are built once, at module load; only a string is ever a code.
 */

import allocationSubjectJson from './allocation_subject.json';
import countryJson from './country.json';
import courseAgeRangeJson from './course_age_range.json';
import courseSubjectJson from './course_subject.json';
import degreeGradeJson from './degree_grade.json';
import degreeInstitutionJson from './degree_institution.json';
import degreeSubjectJson from './degree_subject.json';
import degreeTypeJson from './degree_type.json';
import disabilityJson from './disability.json';
import ethnicGroupJson from './ethnic_group.json';
import ethnicityJson from './ethnicity.json';
import fundCodeJson from './fund_code.json';
import fundingMethodJson from './funding_method.json';
import fundingRuleJson from './funding_rule.json';
import ittAimJson from './itt_aim.json';
import ittQualificationAimJson from './itt_qualification_aim.json';
import nationalityJson from './nationality.json';
import placementMagicUrnJson from './placement_magic_urn.json';
import sexJson from './sex.json';
import statusFilterJson from './status_filter.json';
import studyModeJson from './study_mode.json';
import traineeStateJson from './trainee_state.json';
import trainingInitiativeJson from './training_initiative.json';
import trainingInitiativeByCycleJson from './training_initiative_by_cycle.json';
import trainingRouteJson from './training_route.json';
import withdrawalFutureInterestJson from './withdrawal_future_interest.json';
import withdrawalReasonJson from './withdrawal_reason.json';
import withdrawalTriggerJson from './withdrawal_trigger.json';
import type { ApiVersion } from '../versions';

// Entry shapes.

/** Fields every list entry has (docs/reference/reference-data/README.md "Common entry shape"). */
export interface CodedEntry {
  /** The code accepted on input and returned on output (always a string). */
  readonly code: string;
  /** Human label (`display_name` of the reference-data endpoint). */
  readonly label: string;
  /** Internal value of the reference implementation (leaks into some messages and outputs). */
  readonly value?: string;
  /** The API versions that accept the code, on a code that not every version accepts (absent: every version). */
  readonly versions?: readonly ApiVersion[];
}

/** `training_route.json`. `value` is the internal route name used in messages (docs/reference/API-FACTS.md §6.9, §8.2). */
export interface TrainingRouteEntry extends CodedEntry {
  readonly value: string;
  /** `QTS` or `EYTS`: returned as `course_qualification` (docs/reference/API-FACTS.md §13.4). */
  readonly award_type: 'QTS' | 'EYTS';
  /** Drives `course_level`: `undergrad` when true, else `postgrad` (docs/reference/API-FACTS.md §13.4). */
  readonly undergrad: boolean;
  readonly early_years: boolean;
  /** Non-undergraduate routes need at least one degree on create (docs/reference/API-FACTS.md §6.3). */
  readonly requires_degree: boolean;
  readonly minimum_placements_for_award: number;
  /** Route 12 is refused when the trainee's start cycle is before this year (docs/reference/API-FACTS.md §6.6). */
  readonly earliest_start_cycle?: number;
}

/** `ethnicity.json`: `ethnic_background`/`ethnic_group` are derived; `output_code` is returned. */
export interface EthnicityEntry extends CodedEntry {
  readonly ethnic_background: string;
  readonly ethnic_group: string;
  readonly output_code: string;
}

/** `ethnic_group.json` (output only). */
export interface EthnicGroupEntry extends CodedEntry {
  readonly ethnic_backgrounds: readonly string[];
}

/** `disability.json`. Disability codes are never validated (docs/reference/API-FACTS.md §6.6). */
export interface DisabilityEntry extends CodedEntry {
  readonly value: string;
  readonly disclosure_when_only_code: 'disabled' | 'no_disability' | 'disability_not_provided';
}

/** `nationality.json`: British territories all return `GB` as `output_code`. */
export interface NationalityEntry extends CodedEntry {
  readonly value: string;
  readonly output_code: string;
}

/** `course_age_range.json`: ages in years. */
export interface CourseAgeRangeEntry extends CodedEntry {
  readonly value: string;
  readonly min_age: number;
  readonly max_age: number;
  readonly course_education_phase: 'primary' | 'secondary' | 'early_years';
}

/** `course_subject.json`: `value` is the internal subject name (funding messages). */
export interface CourseSubjectEntry extends CodedEntry {
  readonly value: string;
  readonly allocation_subjects: readonly string[];
}

/** What a funding method gives (`funding_method.json` `funding_type`); `none` is code 6. */
export type FundingType = 'bursary' | 'scholarship' | 'grant' | 'none';

/** `funding_method.json`. */
export interface FundingMethodEntry extends CodedEntry {
  readonly funding_type: FundingType;
}

/** `funding_rule.json`: what funding is available per cycle, type, route and allocation subject. */
export interface FundingRuleEntry extends CodedEntry {
  readonly academic_cycle: number;
  readonly funding_type: Exclude<FundingType, 'none'>;
  /** Internal route name (`training_route.json` `value`). */
  readonly training_route: string;
  readonly amount: number;
  readonly allocation_subjects: readonly string[];
}

/** `allocation_subject.json`: allocation subject (code) → internal course subject names. */
export interface AllocationSubjectEntry extends CodedEntry {
  readonly course_subjects: readonly string[];
}

/** `training_initiative_by_cycle.json`: `code` is the cycle's start year as a string. */
export interface TrainingInitiativeByCycleEntry extends CodedEntry {
  readonly available_initiatives: readonly string[];
}

/** Degree type, subject, grade and institution entries: `uuid` is returned as `*_uuid`. */
export interface DegreeReferenceEntry extends CodedEntry {
  readonly value: string;
  readonly uuid: string;
  /** Input `09` (grade) is stored as `14`; `0133` (institution) as `0149` (docs/reference/API-FACTS.md §11.5). */
  readonly stored_as_code?: string;
}

/** `country.json`: `uk` is true for XF, XG, XH, XI, XK. */
export interface CountryEntry extends CodedEntry {
  readonly uk: boolean;
  readonly value?: string;
}

/** `withdrawal_reason.json`: a reason allowed for both triggers appears twice. */
export interface WithdrawalReasonEntry extends CodedEntry {
  readonly trigger: 'provider' | 'trainee';
  readonly requires_another_reason: boolean;
  readonly requires_safeguarding_concern_reasons: boolean;
}

/** `status_filter.json`: `rule` says which trainees match (docs/reference/API-FACTS.md §14.4). */
export interface StatusFilterEntry extends CodedEntry {
  readonly rule: string;
}

/** `trainee_state.json`. */
export interface TraineeStateEntry extends CodedEntry {
  readonly reachable_via_api: boolean;
}

/** The code lists that can be looked up by code (withdrawal reasons are not unique by code). */
export interface RefLists {
  sex: CodedEntry;
  training_route: TrainingRouteEntry;
  study_mode: CodedEntry;
  ethnicity: EthnicityEntry;
  ethnic_group: EthnicGroupEntry;
  disability: DisabilityEntry;
  nationality: NationalityEntry;
  course_age_range: CourseAgeRangeEntry;
  course_subject: CourseSubjectEntry;
  fund_code: CodedEntry;
  funding_method: FundingMethodEntry;
  itt_aim: CodedEntry;
  itt_qualification_aim: CodedEntry;
  training_initiative: CodedEntry;
  degree_type: DegreeReferenceEntry;
  degree_subject: DegreeReferenceEntry;
  degree_grade: DegreeReferenceEntry;
  degree_institution: DegreeReferenceEntry;
  country: CountryEntry;
  placement_magic_urn: CodedEntry;
  withdrawal_trigger: CodedEntry;
  withdrawal_future_interest: CodedEntry;
  status_filter: StatusFilterEntry;
  trainee_state: TraineeStateEntry;
}

/** Name of a code list (the JSON file's base name). */
export type RefListName = keyof RefLists;

// Raw lists (file order = sorted by code).

function list<T>(json: unknown): readonly T[] {
  return Object.freeze(json as T[]);
}

/** Every list entry in file order (sorted by code). */
export const REFERENCE_LISTS: { readonly [L in RefListName]: readonly RefLists[L][] } = {
  sex: list(sexJson),
  training_route: list(trainingRouteJson),
  study_mode: list(studyModeJson),
  ethnicity: list(ethnicityJson),
  ethnic_group: list(ethnicGroupJson),
  disability: list(disabilityJson),
  nationality: list(nationalityJson),
  course_age_range: list(courseAgeRangeJson),
  course_subject: list(courseSubjectJson),
  fund_code: list(fundCodeJson),
  funding_method: list(fundingMethodJson),
  itt_aim: list(ittAimJson),
  itt_qualification_aim: list(ittQualificationAimJson),
  training_initiative: list(trainingInitiativeJson),
  degree_type: list(degreeTypeJson),
  degree_subject: list(degreeSubjectJson),
  degree_grade: list(degreeGradeJson),
  degree_institution: list(degreeInstitutionJson),
  country: list(countryJson),
  placement_magic_urn: list(placementMagicUrnJson),
  withdrawal_trigger: list(withdrawalTriggerJson),
  withdrawal_future_interest: list(withdrawalFutureInterestJson),
  status_filter: list(statusFilterJson),
  trainee_state: list(traineeStateJson),
};

/** `funding_rule.json` entries. */
export const FUNDING_RULES: readonly FundingRuleEntry[] = list(fundingRuleJson);
/** `allocation_subject.json` entries. */
export const ALLOCATION_SUBJECTS: readonly AllocationSubjectEntry[] = list(allocationSubjectJson);
/** `training_initiative_by_cycle.json` entries. */
export const TRAINING_INITIATIVES_BY_CYCLE: readonly TrainingInitiativeByCycleEntry[] = list(trainingInitiativeByCycleJson);
/** `withdrawal_reason.json` entries (provider reasons first, then trainee reasons). */
export const WITHDRAWAL_REASONS: readonly WithdrawalReasonEntry[] = list(withdrawalReasonJson);

// Lookups by code, built once.

const BY_CODE: { readonly [L in RefListName]: ReadonlyMap<string, RefLists[L]> } = (() => {
  const out: Partial<Record<RefListName, Map<string, CodedEntry>>> = {};
  for (const name of Object.keys(REFERENCE_LISTS) as RefListName[]) {
    out[name] = new Map((REFERENCE_LISTS[name] as readonly CodedEntry[]).map((e) => [e.code, e]));
  }
  return out as { [L in RefListName]: Map<string, RefLists[L]> };
})();

/** The entry of `code` in `list` whatever version accepts it: for stored codes read back; what a request may send is the contract's. */
export function catalogueEntry<L extends RefListName>(list: L, code: unknown): RefLists[L] | undefined {
  return typeof code === 'string' ? (BY_CODE[list].get(code) as RefLists[L] | undefined) : undefined;
}

// Funding and initiatives.

/** Internal course subject name → allocation subjects it belongs to (`allocation_subject.json`). */
const ALLOCATION_BY_SUBJECT: ReadonlyMap<string, readonly string[]> = (() => {
  const m = new Map<string, string[]>();
  for (const a of ALLOCATION_SUBJECTS) {
    for (const s of a.course_subjects) {
      const got = m.get(s) ?? [];
      got.push(a.code);
      m.set(s, got);
    }
  }
  return m;
})();

/** Allocation subjects of an internal course subject name (e.g. `French language` → Modern languages, French language). */
export function allocationSubjectsOf(courseSubjectValue: string): readonly string[] {
  return ALLOCATION_BY_SUBJECT.get(courseSubjectValue) ?? [];
}

const EMPTY_SET: ReadonlySet<string> = new Set();

const RULES_BY_CYCLE: ReadonlyMap<number, readonly FundingRuleEntry[]> = (() => {
  const m = new Map<number, FundingRuleEntry[]>();
  for (const r of FUNDING_RULES) {
    const got = m.get(r.academic_cycle) ?? [];
    got.push(r);
    m.set(r.academic_cycle, got);
  }
  return m;
})();

/** Funding rules seeded for the cycle starting in `cycle` (a start year). */
export function fundingRulesFor(cycle: number): readonly FundingRuleEntry[] {
  return RULES_BY_CYCLE.get(cycle) ?? [];
}

/** Internal route names with at least one funding method in `cycle` (docs/reference/API-FACTS.md §8.1). */
export function routesWithFunding(cycle: number): ReadonlySet<string> {
  return ROUTES_WITH_FUNDING.get(cycle) ?? EMPTY_SET;
}
const ROUTES_WITH_FUNDING: ReadonlyMap<number, ReadonlySet<string>> = new Map(
  [...RULES_BY_CYCLE].map(([cycle, rules]) => [cycle, new Set(rules.map((r) => r.training_route))]),
);

/** Whether a rule of that cycle, type and route lists one of the subject's allocation subjects (docs/reference/API-FACTS.md §8.2). */
export function fundingMethodExists(
  cycle: number,
  fundingType: Exclude<FundingType, 'none'>,
  routeValue: string,
  courseSubjectValue: string,
): boolean {
  const allocation = allocationSubjectsOf(courseSubjectValue);
  if (allocation.length === 0) return false;
  return fundingRulesFor(cycle).some(
    (r) => r.funding_type === fundingType && r.training_route === routeValue && r.allocation_subjects.some((a) => allocation.includes(a)),
  );
}

const INITIATIVES_BY_CYCLE: ReadonlyMap<number, ReadonlySet<string>> = new Map(
  TRAINING_INITIATIVES_BY_CYCLE.map((e) => [Number(e.code), new Set(e.available_initiatives)]),
);

/** Internal initiative names available in `cycle` (empty for cycles outside the file). docs/reference/API-FACTS.md §8.3. */
export function initiativesAvailableIn(cycle: number): ReadonlySet<string> {
  return INITIATIVES_BY_CYCLE.get(cycle) ?? EMPTY_SET;
}

/** Internal name of the initiative set by funding_method `C` (output `training_initiative` null). */
export const VETERANS_INITIATIVE = 'veterans_teaching_undergraduate_bursary';

// Places, schools, degrees, withdrawals.

/** The not-applicable URNs (docs/reference/API-FACTS.md §6.8, §6.10, §10.3; `placement_magic_urn.json`). */
export const NOT_APPLICABLE_URNS: readonly string[] = Object.freeze(REFERENCE_LISTS.placement_magic_urn.map((e) => e.code));

/** True when `urn` is one of 900000, 900010, 900020, 900030. */
export function isNotApplicableUrn(urn: unknown): boolean {
  return typeof urn === 'string' && NOT_APPLICABLE_URNS.includes(urn);
}

/** The placement name that replaces a nested placement's name for a not-applicable URN (§6.10). */
export function notApplicableUrnLabel(urn: string): string | undefined {
  return REFERENCE_LISTS.placement_magic_urn.find((e) => e.code === urn)?.label;
}

/** "Other UK institution", which has no code: a UK degree's fallback for an unknown institution (docs/reference/API-FACTS.md §11.3). */
export const OTHER_UK_INSTITUTION_UUID = '02132969-f5bc-47ca-be9c-b6f6d5b05e1b';

/** Country codes that make a degree a UK degree: XF, XG, XH, XI, XK (docs/reference/API-FACTS.md §11.2). */
export const UK_COUNTRY_CODES: readonly string[] = Object.freeze(REFERENCE_LISTS.country.filter((c) => c.uk).map((c) => c.code));

/** The withdrawal reasons allowed for `trigger`, in file order (docs/reference/API-FACTS.md §12.4). */
export function withdrawalReasonsFor(trigger: string): readonly WithdrawalReasonEntry[] {
  return WITHDRAWAL_REASONS.filter((r) => r.trigger === trigger);
}
