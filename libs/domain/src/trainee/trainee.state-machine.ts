import type { ApiVersion } from '../api-version';
import type { TraineeStatus } from './trainee.state';

/**
 * The one state machine every trainee action asks (docs/reference/API-FACTS.md §12.2, docs/DESIGN.md ruling 8).
 * `update` covers PUT/PATCH of the trainee and every placement/degree write.
 */
export type TraineeAction = 'update' | 'defer' | 'withdraw' | 'recommend_for_award';

const FROZEN_IN_V2026_1: readonly TraineeStatus[] = ['recommended_for_award', 'withdrawn', 'awarded'];

const ALLOWED_FROM: Record<Exclude<TraineeAction, 'update'>, readonly TraineeStatus[]> = {
  defer: ['submitted_for_trn', 'trn_received'],
  withdraw: ['submitted_for_trn', 'trn_received', 'deferred'],
  recommend_for_award: ['submitted_for_trn', 'trn_received'],
};

/** True when `action` may run on a trainee in `state` through API `version`. */
export function isActionAllowed(action: TraineeAction, state: TraineeStatus, version: ApiVersion): boolean {
  if (action === 'update') return version === 'v2025.0' || !FROZEN_IN_V2026_1.includes(state);
  return ALLOWED_FROM[action].includes(state);
}
