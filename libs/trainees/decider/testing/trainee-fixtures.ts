import { REFERENCE_LISTS, catalogueEntry, type RefListName, type RefLists, type TraineeFields } from '@app/trainees/record';
import type { TraineeRules } from '../trainee.rules';

/**
 * Rules for the decider's specifications: every catalogue code, canonical labels, a short unknown-code message and the stricter
 * version's rules (docs/reference/API-FACTS.md §18), each overridable; the real ones are the contract's, specified there.
 */
export function testRules(overrides: Partial<TraineeRules> = {}): TraineeRules {
  return {
    label: (field) => field,
    codes: {
      lookup: <L extends RefListName>(list: L, code: unknown): RefLists[L] | undefined => catalogueEntry(list, code),
      routeAcceptedOnWrite: (code) => REFERENCE_LISTS.training_route.some((r) => r.code === code),
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
    writesRefusedIn: ['recommended_for_award', 'withdrawn', 'awarded'],
    safeguardingConcernsReason: true,
    ...overrides,
  };
}

/**
 * A valid create body's typed fields: the newest version's request example (docs/reference/openapi/) as the wire checks hand it over,
 * without the `iqts_country` route 11 refuses; valid on 2026-11-22.
 */
export const TRAINEE_FIELDS: TraineeFields = {
  first_names: 'John',
  middle_names: 'Ryan',
  last_name: 'Doe',
  date_of_birth: '1990-01-01',
  sex: '11',
  email: 'john.doe@example.com',
  training_route: '11',
  itt_start_date: '2025-08-01',
  itt_end_date: '2027-07-31',
  course_subject_1: '100346',
  course_subject_2: '101410',
  course_subject_3: '100366',
  study_mode: '63',
  nationality: 'GB',
  itt_aim: '202',
  itt_qualification_aim: '001',
  course_year: 2012,
  course_age_range: '13918',
  fund_code: '2',
  funding_method: '6',
  statsagency_id: '0310261553101',
  previous_last_name: 'Smith',
  trainee_start_date: '2025-08-01',
  disabilities: { disability1: '58', disability2: '57' },
  degrees_attributes: [{ grade: '02', subject: '100425', institution: '0116', uk_degree: '083', graduation_year: 2003 }],
  placements_attributes: [{ urn: '900020' }],
  provider_trainee_id: '99157234/2/01',
  pg_apprenticeship_start_date: '2026-03-11',
  application_id: 6916785,
  training_partner_ukprn: '29542999',
  employing_school_urn: '883876',
  training_partner_urn: '660776',
  ethnicity: '142',
};
