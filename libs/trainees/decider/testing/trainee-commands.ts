import type {
  AddDegree,
  AddPlacement,
  DeferTrainee,
  EraseTrainee,
  RecommendForAward,
  RecordAward,
  RecordTrnIssued,
  RegisterTrainee,
  RemoveDegree,
  RemovePlacement,
  TraineeCommand,
  UpdateDegree,
  UpdatePlacement,
  UpdateTrainee,
  WithdrawTrainee,
} from '../trainee.commands';
import type {
  School,
  DeferralFields,
  DegreeFields,
  PlacementFields,
  RecommendationFields,
  TraineeFields,
  WithdrawalFields,
} from '@app/trainees/record';
import { requestData } from '../rules/request-data';
import { TRAINEE_FIELDS, testRules } from './trainee-fixtures';
import { DEGREE_ID, NOW, PLACEMENT_ID, REGISTERED_AT, TRAINEE_ID, UKPRN } from './trainee-events';

/**
 * One builder per command type: the example provider's on T1 under {@link testRules} at `NOW`, by default giving the matching
 * fixture event of trainee-events.ts, any other part overridable.
 */

/** A command of the provider's API on a trainee: every trainee command but the registry's. */
export type ProviderTraineeCommand = Exclude<TraineeCommand, RecordTrnIssued | RecordAward | EraseTrainee>;

/** The rules of the specs: the stricter version's (writes refused once recommended, withdrawn or awarded). */
export const RULES = testRules();
/** The rules of a version that refuses no write whatever the state (docs/reference/API-FACTS.md §7.2). */
export const OPEN_RULES = testRules({ writesRefusedIn: [] });

export const OAK_PRIMARY: School = { urn: '100001', name: 'Oak Primary School', town: 'Guildford', postcode: 'GU1 6FR' };
export const SCHOOLS: ReadonlyMap<string, School> = new Map([[OAK_PRIMARY.urn, OAK_PRIMARY]]);

const ON_TRAINEE = { trainee_id: TRAINEE_ID, ukprn: UKPRN, rules: RULES, now: NOW } as const;

/** Registers the example (`fields` merged in) at REGISTERED_AT with ids P1 then D1: decides exactly `exampleRegistration()`. */
export function registerTrainee(overrides: Partial<RegisterTrainee> = {}, fields: TraineeFields = {}): RegisterTrainee {
  return {
    type: 'RegisterTrainee',
    ...ON_TRAINEE,
    data: requestData({ ...TRAINEE_FIELDS, ...fields }),
    now: REGISTERED_AT,
    new_ids: [PLACEMENT_ID, DEGREE_ID],
    duplicate_candidates: [],
    ...overrides,
  };
}

/** PUT/PATCH of the trainee with `fields`. */
export function updateTrainee(fields: TraineeFields, overrides: Partial<UpdateTrainee> = {}): UpdateTrainee {
  return { type: 'UpdateTrainee', ...ON_TRAINEE, data: requestData(fields), ...overrides };
}

/** POST …/placements with `fields`, new id P9, against {@link SCHOOLS}. */
export function addPlacement(fields: PlacementFields, overrides: Partial<AddPlacement> = {}): AddPlacement {
  return { type: 'AddPlacement', ...ON_TRAINEE, placement_id: 'P9', data: requestData(fields), schools: SCHOOLS, ...overrides };
}

/** PUT/PATCH …/placements/{placement_id} with `fields`, against {@link SCHOOLS}. */
export function updatePlacement(placementId: string, fields: PlacementFields, overrides: Partial<UpdatePlacement> = {}): UpdatePlacement {
  return { type: 'UpdatePlacement', ...ON_TRAINEE, placement_id: placementId, data: requestData(fields), schools: SCHOOLS, ...overrides };
}

/** DELETE …/placements/{placement_id}. */
export function removePlacement(placementId: string, overrides: Partial<RemovePlacement> = {}): RemovePlacement {
  return { type: 'RemovePlacement', ...ON_TRAINEE, placement_id: placementId, ...overrides };
}

/** A second UK degree: BA (083), subject 100425, 2:1, institution 0116, graduated 2010. */
export const SECOND_DEGREE_FIELDS: DegreeFields = {
  grade: '02',
  subject: '100425',
  institution: '0116',
  uk_degree: '083',
  graduation_year: 2010,
};

/** POST …/degrees with `fields`, new id D9. */
export function addDegree(fields: DegreeFields, overrides: Partial<AddDegree> = {}): AddDegree {
  return { type: 'AddDegree', ...ON_TRAINEE, degree_id: 'D9', data: requestData(fields), ...overrides };
}

/** PUT/PATCH …/degrees/{degree_id} with `fields`. */
export function updateDegree(degreeId: string, fields: DegreeFields, overrides: Partial<UpdateDegree> = {}): UpdateDegree {
  return { type: 'UpdateDegree', ...ON_TRAINEE, degree_id: degreeId, data: requestData(fields), ...overrides };
}

/** DELETE …/degrees/{degree_id}. */
export function removeDegree(degreeId: string, overrides: Partial<RemoveDegree> = {}): RemoveDegree {
  return { type: 'RemoveDegree', ...ON_TRAINEE, degree_id: degreeId, ...overrides };
}

/** POST …/defer; by default the fields of `traineeDeferred()` (2026-02-01, Illness). */
export function deferTrainee(
  fields: DeferralFields = { defer_date: '2026-02-01', defer_reason: 'Illness' },
  overrides: Partial<DeferTrainee> = {},
): DeferTrainee {
  return { type: 'DeferTrainee', ...ON_TRAINEE, data: requestData(fields), ...overrides };
}

/** The fields of `traineeWithdrawn()`'s withdrawal, as a request carries them. */
export const WITHDRAWAL_FIELDS: WithdrawalFields = {
  withdrawal_date: '2026-03-01',
  trigger: 'provider',
  future_interest: 'yes',
  reasons: ['mandatory_reasons'],
  another_reason: null,
  safeguarding_concern_reasons: null,
};

/** POST …/withdraw; by default {@link WITHDRAWAL_FIELDS}. */
export function withdrawTrainee(fields: WithdrawalFields = WITHDRAWAL_FIELDS, overrides: Partial<WithdrawTrainee> = {}): WithdrawTrainee {
  return { type: 'WithdrawTrainee', ...ON_TRAINEE, data: requestData(fields), ...overrides };
}

/** POST …/recommend-for-qts; by default the date of `traineeRecommendedForAward()` (2026-11-01). */
export function recommendForAward(
  fields: RecommendationFields = { qts_standards_met_date: '2026-11-01' },
  overrides: Partial<RecommendForAward> = {},
): RecommendForAward {
  return { type: 'RecommendForAward', ...ON_TRAINEE, data: requestData(fields), ...overrides };
}

/** The registry's TRN for the trainee; by default that of `trnIssued()` (1234567). */
export function recordTrnIssued(overrides: Partial<RecordTrnIssued> = {}): RecordTrnIssued {
  return { type: 'RecordTrnIssued', trainee_id: TRAINEE_ID, trn: '1234567', now: NOW, ...overrides };
}

/** The registry's award of the trainee; by default that of `traineeAwarded()` (2026-11-10). */
export function recordAward(overrides: Partial<RecordAward> = {}): RecordAward {
  return { type: 'RecordAward', trainee_id: TRAINEE_ID, awarded_at: '2026-11-10T00:00:00.000Z', now: NOW, ...overrides };
}
