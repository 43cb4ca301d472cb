import type {
  School,
  Trainee,
  DeferralFields,
  DegreeFields,
  PlacementFields,
  RecommendationFields,
  TraineeFields,
  WithdrawalFields,
} from '@app/trainees/record';
import type { TraineeRules } from './trainee.rules';
import type { RequestData } from './rules/request-data';

/** Commands on a trainee, carrying all a pure decider needs from outside: `now` (ISO 8601, UTC), new ids, look-ups, the rules as data. */
export interface RegisterTrainee {
  type: 'RegisterTrainee';
  trainee_id: string;
  ukprn: string;
  rules: TraineeRules;
  data: RequestData<TraineeFields>;
  now: string;
  /** Fresh ids for nested placements and degrees, used in order (at least one per item). */
  new_ids: string[];
  /** The provider's trainees that may duplicate this one (same date of birth, route, last name). */
  duplicate_candidates: Trainee[];
  /** Schools of the directory for the URNs of the nested placements. */
  schools?: ReadonlyMap<string, School>;
  /** `api` (the default), or `csv` for an uploaded file's row, as the real service records bulk adds (docs/DESIGN.md "Uploads"). */
  record_source?: RecordSource;
}

/** The ways a trainee record comes in that the service records (`record_source`). */
export type RecordSource = 'api' | 'csv';

/** PUT or PATCH of a trainee: merge semantics (docs/reference/API-FACTS.md §7.1). */
export interface UpdateTrainee {
  type: 'UpdateTrainee';
  trainee_id: string;
  ukprn: string;
  rules: TraineeRules;
  data: RequestData<TraineeFields>;
  now: string;
}

interface SubResourceCommand {
  trainee_id: string;
  ukprn: string;
  rules: TraineeRules;
  now: string;
}

/** POST …/placements (docs/spec/trainee-records-api.md "POST /trainees/{trainee_id}/placements"; docs/reference/API-FACTS.md §10). */
export interface AddPlacement extends SubResourceCommand {
  type: 'AddPlacement';
  placement_id: string;
  data: RequestData<PlacementFields>;
  schools: ReadonlyMap<string, School>;
}

/** PUT or PATCH …/placements/{placement_id}: the fields sent replace the stored ones (docs/reference/API-FACTS.md §10.5). */
export interface UpdatePlacement extends SubResourceCommand {
  type: 'UpdatePlacement';
  placement_id: string;
  data: RequestData<PlacementFields>;
  schools: ReadonlyMap<string, School>;
}

export interface RemovePlacement extends SubResourceCommand {
  type: 'RemovePlacement';
  placement_id: string;
}

/** POST …/degrees (docs/spec/trainee-records-api.md "POST /trainees/{trainee_id}/degrees"; docs/reference/API-FACTS.md §11). */
export interface AddDegree extends SubResourceCommand {
  type: 'AddDegree';
  degree_id: string;
  data: RequestData<DegreeFields>;
}

/** PUT or PATCH …/degrees/{degree_id}: partial (docs/reference/API-FACTS.md §11.7). */
export interface UpdateDegree extends SubResourceCommand {
  type: 'UpdateDegree';
  degree_id: string;
  data: RequestData<DegreeFields>;
}

export interface RemoveDegree extends SubResourceCommand {
  type: 'RemoveDegree';
  degree_id: string;
}

/** POST …/defer: its body's typed fields (docs/reference/API-FACTS.md §12.3). */
export interface DeferTrainee extends SubResourceCommand {
  type: 'DeferTrainee';
  data: RequestData<DeferralFields>;
}

/** POST …/withdraw: its body's typed fields, each under its canonical name (docs/reference/API-FACTS.md §12.4). */
export interface WithdrawTrainee extends SubResourceCommand {
  type: 'WithdrawTrainee';
  data: RequestData<WithdrawalFields>;
}

/** POST …/recommend-for-qts (and …/update-qts-or-eyts-status): its body's typed fields (docs/reference/API-FACTS.md §12.5). */
export interface RecommendForAward extends SubResourceCommand {
  type: 'RecommendForAward';
  data: RequestData<RecommendationFields>;
}

/** The registry's answer to a TRN request, recorded by the registry process manager. */
export interface RecordTrnIssued {
  type: 'RecordTrnIssued';
  trainee_id: string;
  trn: string;
  now: string;
}

/** The registry's award, recorded by the registry process manager. */
export interface RecordAward {
  type: 'RecordAward';
  trainee_id: string;
  awarded_at: string;
  now: string;
}

/** The operator erases a trainee (docs/DESIGN.md "Personal data"): `admin trainee erase`. */
export interface EraseTrainee {
  type: 'EraseTrainee';
  trainee_id: string;
  /** Why, in the clear: at most {@link ERASE_REASON_MAX_LENGTH} characters, not blank. */
  reason: string;
  /** Who erases: not blank, at most {@link ERASED_BY_MAX_LENGTH} characters. */
  erased_by: string;
  now: string;
}

export const ERASE_REASON_MAX_LENGTH = 500;
export const ERASED_BY_MAX_LENGTH = 100;

export type TraineeCommand =
  | RegisterTrainee
  | UpdateTrainee
  | AddPlacement
  | UpdatePlacement
  | RemovePlacement
  | AddDegree
  | UpdateDegree
  | RemoveDegree
  | DeferTrainee
  | WithdrawTrainee
  | RecommendForAward
  | RecordTrnIssued
  | RecordAward
  | EraseTrainee;
