import type { Degree, Placement, TraineeDetails, TraineeStatus, Withdrawal } from '@app/trainees/record';
import type {
  DegreeAdded,
  DegreeRemoved,
  DegreeUpdated,
  PlacementAdded,
  PlacementRemoved,
  PlacementUpdated,
  TraineeAwarded,
  TraineeDeferred,
  TraineeEvent,
  TraineeRecommendedForAward,
  TraineeRegistered,
  TraineeSubmittedForTrn,
  TraineeUpdated,
  TraineeWithdrawn,
  TrnIssued,
} from '../trainee.events';

/**
 * The example trainee's history as literal events, one builder per type to vary it: a spec's `given` is made of these, never of
 * `decide`'s output. Registered with P1 and D1 on 2026-01-05, TRN on 2026-01-12, then deferred, withdrawn or recommended and awarded.
 */

export const TRAINEE_ID = 'T1';
/** The provider owning the example trainee. */
export const UKPRN = '10000001';
/** Another provider, to which the example trainee is unknown. */
export const OTHER_UKPRN = '10000009';
/** Ids of the example's nested placement and degree. */
export const PLACEMENT_ID = 'P1';
export const DEGREE_ID = 'D1';

export const REGISTERED_AT = '2026-01-05T09:00:00.000Z';
export const TRN_ISSUED_AT = '2026-01-12T08:00:00.000Z';
export const UPDATED_AT = '2026-01-20T10:00:00.000Z';
export const DEFERRED_AT = '2026-02-02T09:00:00.000Z';
export const WITHDRAWN_AT = '2026-03-02T09:00:00.000Z';
export const RECOMMENDED_AT = '2026-11-02T09:00:00.000Z';
export const AWARDED_AT = '2026-11-10T06:00:00.000Z';
/** The instant the specs' commands run at: after every event of the timeline. */
export const NOW = '2026-11-22T10:00:00.000Z';

/** The example's details as `TraineeRegistered` carries them (TRAINEE_FIELDS after mapping and derivation). */
export const EXAMPLE_DETAILS: TraineeDetails = {
  provider_trainee_id: '99157234/2/01',
  first_names: 'John',
  middle_names: 'Ryan',
  last_name: 'Doe',
  previous_last_name: 'Smith',
  date_of_birth: '1990-01-01',
  email: 'john.doe@example.com',
  sex: '11',
  nationality: 'GB',
  ethnicity: '142',
  ethnic_group: 'mixed_ethnic_group',
  ethnic_background: 'Black Caribbean and White',
  additional_ethnic_background: null,
  diversity_disclosure: 'diversity_disclosed',
  disability_disclosure: 'disabled',
  disabilities: { disability1: '58', disability2: '57' },
  training_route: '11',
  course_qualification: 'QTS',
  course_level: 'undergrad',
  course_education_phase: 'secondary',
  course_title: null,
  course_subject_1: '100346',
  course_subject_2: '101410',
  course_subject_3: '100366',
  course_age_range: '13918',
  course_min_age: 11,
  course_max_age: 16,
  itt_start_date: '2025-08-01',
  itt_end_date: '2027-07-31',
  trainee_start_date: '2025-08-01',
  study_mode: '63',
  course_year: 2012,
  itt_aim: '202',
  itt_qualification_aim: '001',
  fund_code: '2',
  funding_method: '6',
  training_initiative: null,
  additional_training_initiative: null,
  ni_number: null,
  pg_apprenticeship_start_date: '2026-03-11',
  statsagency_id: '0310261553101',
  employing_school_urn: '883876',
  training_partner_urn: '660776',
  training_partner_ukprn: null,
  iqts_country: null,
  application_id: 6916785,
};

/** The example's nested placement: URN 900020 ("no URN"), its name the URN's label. */
export const EXAMPLE_PLACEMENT: Placement = {
  placement_id: PLACEMENT_ID,
  urn: '900020',
  name: 'Establishment does not have a URN',
  postcode: null,
  address: null,
  school_id: null,
  created_at: REGISTERED_AT,
  updated_at: REGISTERED_AT,
};

/** The example's nested degree: a UK BA (083), subject 100425, 2:1 (02), institution 0116, 2003. */
export const EXAMPLE_DEGREE: Degree = {
  degree_id: DEGREE_ID,
  uk_degree: '083',
  non_uk_degree: null,
  subject: '100425',
  institution: '0116',
  grade: '02',
  country: null,
  graduation_year: 2003,
  other_grade: null,
  institution_uuid: '1071f34a-2887-e711-80d8-005056ac45bb',
  uk_degree_uuid: '1b6a5652-c197-e711-80d8-005056ac45bb',
  subject_uuid: '918170f0-5dce-e911-a985-000d3ab79618',
  grade_uuid: 'e2fe18d4-8655-47cf-ab1a-8c3e0b0f078f',
  created_at: REGISTERED_AT,
  updated_at: REGISTERED_AT,
};

/** The example's withdrawal: by the provider, for mandatory reasons, on 2026-03-01. */
export const EXAMPLE_WITHDRAWAL: Withdrawal = {
  date: '2026-03-01',
  trigger: 'provider',
  future_interest: 'yes',
  reasons: ['mandatory_reasons'],
  another_reason: null,
  safeguarding_concern_reasons: null,
};

/** Event data with some fields replaced and the nested objects named in `K` merged field by field. */
type Overrides<D, K extends keyof D = never> = Partial<Omit<D, K>> & { [P in K]?: Partial<D[P]> };

/** A deep copy, so that a spec changing a built event cannot change the fixtures. */
function copy<T>(value: T): T {
  return structuredClone(value);
}

/** The example trainee registered at {@link REGISTERED_AT}; `details` merges into {@link EXAMPLE_DETAILS}. */
export function traineeRegistered(overrides: Overrides<TraineeRegistered['data'], 'details'> = {}): TraineeRegistered {
  const { details, ...rest } = overrides;
  return {
    type: 'TraineeRegistered',
    data: {
      trainee_id: TRAINEE_ID,
      ukprn: UKPRN,
      record_source: 'api',
      at: REGISTERED_AT,
      ...rest,
      details: { ...copy(EXAMPLE_DETAILS), ...details },
    },
  };
}

/** The example's placement added; `placement` merges into {@link EXAMPLE_PLACEMENT}. */
export function placementAdded(overrides: Overrides<PlacementAdded['data'], 'placement'> = {}): PlacementAdded {
  const { placement, ...rest } = overrides;
  return {
    type: 'PlacementAdded',
    data: { trainee_id: TRAINEE_ID, at: REGISTERED_AT, ...rest, placement: { ...EXAMPLE_PLACEMENT, ...placement } },
  };
}

/** The example's degree added; `degree` merges into {@link EXAMPLE_DEGREE}. */
export function degreeAdded(overrides: Overrides<DegreeAdded['data'], 'degree'> = {}): DegreeAdded {
  const { degree, ...rest } = overrides;
  return { type: 'DegreeAdded', data: { trainee_id: TRAINEE_ID, at: REGISTERED_AT, ...rest, degree: { ...EXAMPLE_DEGREE, ...degree } } };
}

/** Submitted for a TRN at registration. */
export function traineeSubmittedForTrn(overrides: Overrides<TraineeSubmittedForTrn['data']> = {}): TraineeSubmittedForTrn {
  return { type: 'TraineeSubmittedForTrn', data: { trainee_id: TRAINEE_ID, at: REGISTERED_AT, ...overrides } };
}

/** The events of registering the example, in `RegisterTrainee`'s order; `at` is all four's instant, `details` merges. */
export function exampleRegistration(
  options: {
    trainee_id?: string;
    ukprn?: string;
    at?: string;
    details?: Partial<TraineeDetails>;
    placement_id?: string;
    degree_id?: string;
  } = {},
): TraineeEvent[] {
  const {
    trainee_id = TRAINEE_ID,
    ukprn = UKPRN,
    at = REGISTERED_AT,
    details,
    placement_id = PLACEMENT_ID,
    degree_id = DEGREE_ID,
  } = options;
  return [
    traineeRegistered({ trainee_id, ukprn, at, details }),
    placementAdded({ trainee_id, at, placement: { placement_id, created_at: at, updated_at: at } }),
    degreeAdded({ trainee_id, at, degree: { degree_id, created_at: at, updated_at: at } }),
    traineeSubmittedForTrn({ trainee_id, at }),
  ];
}

/** The registry issued TRN 1234567. */
export function trnIssued(overrides: Overrides<TrnIssued['data']> = {}): TrnIssued {
  return { type: 'TrnIssued', data: { trainee_id: TRAINEE_ID, trn: '1234567', at: TRN_ISSUED_AT, ...overrides } };
}

/** First names changed to Jonathan. */
export function traineeUpdated(overrides: Overrides<TraineeUpdated['data']> = {}): TraineeUpdated {
  return { type: 'TraineeUpdated', data: { trainee_id: TRAINEE_ID, changes: { first_names: 'Jonathan' }, at: UPDATED_AT, ...overrides } };
}

/** The example's placement renamed; `placement` merges into it (updated_at {@link UPDATED_AT}). */
export function placementUpdated(overrides: Overrides<PlacementUpdated['data'], 'placement'> = {}): PlacementUpdated {
  const { placement, ...rest } = overrides;
  return {
    type: 'PlacementUpdated',
    data: {
      trainee_id: TRAINEE_ID,
      at: UPDATED_AT,
      ...rest,
      placement: { ...EXAMPLE_PLACEMENT, name: 'Renamed', updated_at: UPDATED_AT, ...placement },
    },
  };
}

/** The example's placement removed. */
export function placementRemoved(overrides: Overrides<PlacementRemoved['data']> = {}): PlacementRemoved {
  return { type: 'PlacementRemoved', data: { trainee_id: TRAINEE_ID, placement_id: PLACEMENT_ID, at: UPDATED_AT, ...overrides } };
}

/** The example's degree regraded to a 2:2 (03); `degree` merges into it (updated_at {@link UPDATED_AT}). */
export function degreeUpdated(overrides: Overrides<DegreeUpdated['data'], 'degree'> = {}): DegreeUpdated {
  const { degree, ...rest } = overrides;
  return {
    type: 'DegreeUpdated',
    data: {
      trainee_id: TRAINEE_ID,
      at: UPDATED_AT,
      ...rest,
      degree: { ...EXAMPLE_DEGREE, grade: '03', grade_uuid: '377a46ea-d6c6-4e87-9728-c1f0dd0ef109', updated_at: UPDATED_AT, ...degree },
    },
  };
}

/** The example's degree removed. */
export function degreeRemoved(overrides: Overrides<DegreeRemoved['data']> = {}): DegreeRemoved {
  return { type: 'DegreeRemoved', data: { trainee_id: TRAINEE_ID, degree_id: DEGREE_ID, at: UPDATED_AT, ...overrides } };
}

/** Deferred from 2026-02-01 for illness. */
export function traineeDeferred(overrides: Overrides<TraineeDeferred['data']> = {}): TraineeDeferred {
  return {
    type: 'TraineeDeferred',
    data: { trainee_id: TRAINEE_ID, defer_date: '2026-02-01', defer_reason: 'Illness', at: DEFERRED_AT, ...overrides },
  };
}

/** Withdrawn; `withdrawal` merges into {@link EXAMPLE_WITHDRAWAL}. */
export function traineeWithdrawn(overrides: Overrides<TraineeWithdrawn['data'], 'withdrawal'> = {}): TraineeWithdrawn {
  const { withdrawal, ...rest } = overrides;
  return {
    type: 'TraineeWithdrawn',
    data: { trainee_id: TRAINEE_ID, at: WITHDRAWN_AT, ...rest, withdrawal: { ...copy(EXAMPLE_WITHDRAWAL), ...withdrawal } },
  };
}

/** Recommended for QTS, the standards met on 2026-11-01. */
export function traineeRecommendedForAward(overrides: Overrides<TraineeRecommendedForAward['data']> = {}): TraineeRecommendedForAward {
  return {
    type: 'TraineeRecommendedForAward',
    data: { trainee_id: TRAINEE_ID, outcome_date: '2026-11-01', at: RECOMMENDED_AT, ...overrides },
  };
}

/** Awarded QTS at midnight UTC of 2026-11-10. */
export function traineeAwarded(overrides: Overrides<TraineeAwarded['data']> = {}): TraineeAwarded {
  return {
    type: 'TraineeAwarded',
    data: { trainee_id: TRAINEE_ID, awarded_at: '2026-11-10T00:00:00.000Z', at: AWARDED_AT, ...overrides },
  };
}

/** Literal events leaving the example trainee in `state`. */
export function exampleHistoryIn(state: Exclude<TraineeStatus, 'draft'>): TraineeEvent[] {
  const registered = exampleRegistration();
  switch (state) {
    case 'submitted_for_trn':
      return registered;
    case 'trn_received':
      return [...registered, trnIssued()];
    case 'deferred':
      return [...registered, trnIssued(), traineeDeferred()];
    case 'withdrawn':
      return [...registered, trnIssued(), traineeWithdrawn()];
    case 'recommended_for_award':
      return [...registered, trnIssued(), traineeRecommendedForAward()];
    case 'awarded':
      return [...registered, trnIssued(), traineeRecommendedForAward(), traineeAwarded()];
  }
}
