import { catalogueEntry, type RefListName, type RefLists, type TraineeFields } from '@app/trainees/record';
import type { TraineeRules } from '../trainee.rules';
import { validateNewTrainee } from './validate-trainee';

/**
 * Messages that share a `rule:` path are answered in the order the rules add them (the sort by
 * TRAINEE_MESSAGE_ORDER keeps insertion order within one path), which the contract's specs do not
 * pin because they trigger one such message at a time (docs/reference/API-FACTS.md §6.6).
 */
const RULES: TraineeRules = {
  label: (field) => field,
  codes: {
    lookup: <L extends RefListName>(list: L, code: unknown): RefLists[L] | undefined => catalogueEntry(list, code),
    routeAcceptedOnWrite: () => true,
    unknownCodeMessage: (label, value) => `${label} has invalid reference data value of '${String(value)}'.`,
  },
  primaryCourseSubject: 'require',
  earlyYearsRoutes: true,
  ittEndDateWindow: { yearsAhead: 5, yearsAgo: 10 },
  studyModeOptionalForRoutes: ['16', '17'],
  courseYear: 'integer',
  additionalTrainingInitiative: 'coded',
  iqtsCountry: true,
  fundCodeExceptionCycles: [2025, 2026],
  writesRefusedIn: [],
  safeguardingConcernsReason: true,
};

const VALID: TraineeFields = {
  first_names: 'Ada',
  last_name: 'Lovelace',
  date_of_birth: '1990-05-01',
  sex: '10',
  email: 'ada@example.com',
  training_route: '11',
  itt_start_date: '2026-09-01',
  itt_end_date: '2029-07-31',
  statsagency_id: '1234567890123',
  course_subject_1: '100346',
  study_mode: '01',
  itt_aim: '201',
  course_year: 2026,
  course_age_range: '13918',
  fund_code: '2',
  funding_method: '6',
  degrees_attributes: [{ uk_degree: '083', subject: '100425', institution: '0116', grade: '02', graduation_year: 2012 }],
};

function errorsOf(fields: TraineeFields): string[] {
  const result = validateNewTrainee({ ...VALID, ...fields }, [], { rules: RULES, today: '2026-11-22' });
  return result.ok ? [] : result.errors;
}

describe('order of the messages that share a rule path', () => {
  it('accepts the base record', () => {
    expect(errorsOf({})).toEqual([]);
  });

  it('answers duplicate course subjects 2 before 3', () => {
    expect(errorsOf({ course_subject_2: '100346', course_subject_3: '100346' })).toEqual([
      'course_subject_2 might contain duplicate values',
      'course_subject_3 might contain duplicate values',
    ]);
  });

  it("answers an early-years route's subject before its age range", () => {
    expect(errorsOf({ training_route: '18', course_subject_1: '100346', course_age_range: '13918' })).toEqual([
      'course_subject_1 is invalid. It should be `100510` for the training_route provided',
      'course_age_range is invalid. It should be `13920` for the training_route provided',
    ]);
  });
});
