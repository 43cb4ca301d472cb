import type { RefListName, RefLists, TraineeStatus } from '@app/trainees/record';

/**
 * The coded values one API version accepts (docs/reference/API-FACTS.md §6.6, §6.9), built by the
 * contract (libs/trainees/contract) from the record's catalogue. The decider asks it, never a
 * version name.
 */
export interface CodeBook {
  /**
   * The entry of `code` in `list` when this version accepts it, else undefined. Takes any JSON value:
   * only a string can match (codes are JSON strings, docs/reference/reference-data/README.md).
   */
  lookup<L extends RefListName>(list: L, code: unknown): RefLists[L] | undefined;
  /** True when a training route `code` may be written (created or updated) in this version (§6.6). */
  routeAcceptedOnWrite(code: string): boolean;
  /**
   * The unknown-code message, byte for byte (docs/reference/API-FACTS.md §6.9): `<label> has invalid
   * reference data value of '<value>'. Valid values are …` or `… Example values include …...`.
   * `value` is echoed as sent (strings as they are, other JSON values as bounded JSON text).
   */
  unknownCodeMessage(label: string, value: unknown, list: RefListName): string;
}

/**
 * What differs between the API versions in the trainee rules, as data (docs/reference/API-FACTS.md
 * §18 lists the differences). The contract (libs/trainees/contract) builds one per API version;
 * `decide` and the validators read it and never see a version name. Each flag names the rule it
 * switches.
 */
export interface TraineeRules {
  /** The field's name as the client knows it, for messages (docs/reference/API-FACTS.md §5.2); canonical names in. */
  label(field: string): string;
  /** The coded values this version accepts. */
  codes: CodeBook;
  /**
   * A primary course age range (§6.6): `rewrite` puts primary teaching (100511) first and keeps the
   * other subjects; `require` refuses a first subject other than 100510/100511 as the rule says.
   */
  primaryCourseSubject: 'rewrite' | 'require';
  /** Early-years routes get their subject and age-range rules and the `early_years` phase (§6.6, §6.7). */
  earlyYearsRoutes: boolean;
  /** itt_end_date within `yearsAhead` calendar years ahead and `yearsAgo` years ago, or no window (§6.5). */
  ittEndDateWindow: { yearsAhead: number; yearsAgo: number } | null;
  /** Routes for which study_mode may be left out (§6.3). */
  studyModeOptionalForRoutes: readonly string[];
  /** course_year: `integer` (a JSON integer or digits) or `any` present value (§6.4). */
  courseYear: 'integer' | 'any';
  /** additional_training_initiative: a code checked against the cycle, or free text stored as sent (§8.3). */
  additionalTrainingInitiative: 'coded' | 'free_text';
  /** iqts_country is a field: required for the iQTS route and refused for any other (§6.3). */
  iqtsCountry: boolean;
  /** Cycles (start years) of the fund-code exception for some subjects (§8.2). */
  fundCodeExceptionCycles: readonly number[];
  /** States in which a trainee, its placements and degrees may not be written (§7.2, §10.6, §11.8). */
  writesRefusedIn: readonly TraineeStatus[];
  /** `safeguarding_concerns` is a withdrawal reason, and the withdrawal body reads the concerns it needs (docs/DESIGN.md ruling 7). */
  safeguardingConcernsReason: boolean;
}
