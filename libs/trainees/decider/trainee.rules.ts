import type { RefListName, RefLists, TraineeStatus } from '@app/trainees/record';

/** The codes one API version accepts (docs/reference/API-FACTS.md §6.6, §6.9), built by the contract: the decider never sees a version. */
export interface CodeBook {
  /** The entry when this version accepts `code` (any JSON value: only a string matches), else undefined. */
  lookup<L extends RefListName>(list: L, code: unknown): RefLists[L] | undefined;
  /** Whether a create or update may set training route `code` (§6.6). */
  routeAcceptedOnWrite(code: string): boolean;
  /** The unknown-code message of docs/reference/API-FACTS.md §6.9, byte for byte, `value` echoed as sent. */
  unknownCodeMessage(label: string, value: unknown, list: RefListName): string;
}

/** What differs between the API versions' trainee rules, as data (docs/reference/API-FACTS.md §18), one per version from the contract. */
export interface TraineeRules {
  /** The field's name as the client knows it, for messages (docs/reference/API-FACTS.md §5.2); canonical names in. */
  label(field: string): string;
  codes: CodeBook;
  /** A primary age range (§6.6): `rewrite` puts 100511 first, keeping the others; `require` refuses a first other than 100510/100511. */
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
