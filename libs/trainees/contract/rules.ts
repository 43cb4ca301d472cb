/**
 * The trainee rules of each API version, as the data the decider reads (`TraineeRules` of
 * libs/trainees/decider): what docs/reference/API-FACTS.md §18 lists as differences between v2025.0
 * and v2026.1, one row per difference.
 */
import type { TraineeRules } from '@app/trainees/decider';
import { codeBookFor } from './code-books';
import { fieldLabel, inputKindOf, inputRow, TRAINEE_RECORD, API_VERSIONS, type ApiVersion } from '@app/trainees/record';

/** The rules read from the trainee record's table rather than listed here. */
type FromTable = 'courseYear' | 'additionalTrainingInitiative';
type RuleFlags = Omit<TraineeRules, 'label' | 'codes' | FromTable>;

/** What the trainee record's table says a version accepts for course_year and additional_training_initiative (§6.4, §8.3). */
function fromTable(version: ApiVersion): Pick<TraineeRules, FromTable> {
  const courseYear = inputKindOf(inputRow(TRAINEE_RECORD, 'course_year').input, version);
  const additional = inputKindOf(inputRow(TRAINEE_RECORD, 'additional_training_initiative').input, version);
  return {
    courseYear: courseYear.kind === 'course_year' && courseYear.integer ? 'integer' : 'any',
    additionalTrainingInitiative: additional.kind === 'code' ? 'coded' : 'free_text',
  };
}

const FLAGS: Readonly<Record<ApiVersion, RuleFlags>> = {
  'v2025.0': {
    primaryCourseSubject: 'rewrite', // §6.6: subject 1 silently forced to primary teaching
    earlyYearsRoutes: false, // §18: early-years routes rejected (the route list withholds them)
    ittEndDateWindow: null, // §6.5: only "after start"
    studyModeOptionalForRoutes: [], // §6.3: always required
    iqtsCountry: false, // §6.2: not accepted
    fundCodeExceptionCycles: [2025], // §8.2
    writesRefusedIn: [], // §7.2, §12.2: no state restriction
    safeguardingConcernsReason: false, // docs/DESIGN.md ruling 7
  },
  'v2026.1': {
    primaryCourseSubject: 'require',
    earlyYearsRoutes: true,
    ittEndDateWindow: { yearsAhead: 5, yearsAgo: 10 },
    studyModeOptionalForRoutes: ['16', '17'], // assessment only, early-years assessment only
    iqtsCountry: true,
    fundCodeExceptionCycles: [2025, 2026],
    writesRefusedIn: ['recommended_for_award', 'withdrawn', 'awarded'],
    safeguardingConcernsReason: true,
  },
};

const RULES: Readonly<Record<ApiVersion, TraineeRules>> = Object.fromEntries(
  API_VERSIONS.map((version): [ApiVersion, TraineeRules] => [
    version,
    Object.freeze({
      ...FLAGS[version],
      ...fromTable(version),
      codes: codeBookFor(version),
      label: (field: string) => fieldLabel(field, version),
    }),
  ]),
) as Record<ApiVersion, TraineeRules>;

/** The trainee rules of `version`. */
export function traineeRulesFor(version: ApiVersion): TraineeRules {
  return RULES[version];
}
