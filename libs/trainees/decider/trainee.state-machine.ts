import type { TraineeRules } from './trainee.rules';
import type { TraineeStatus } from '@app/trainees/record';

/**
 * The state machine every trainee action asks (docs/reference/API-FACTS.md §12.2; docs/DESIGN.md ruling 8); `update` covers every
 * write to the trainee, its placements and degrees, refused in `rules.writesRefusedIn` (§7.2).
 */
export type TraineeAction = 'update' | 'defer' | 'withdraw' | 'recommend_for_award';

const ALLOWED_FROM: Record<Exclude<TraineeAction, 'update'>, readonly TraineeStatus[]> = {
  defer: ['submitted_for_trn', 'trn_received'],
  withdraw: ['submitted_for_trn', 'trn_received', 'deferred'],
  recommend_for_award: ['submitted_for_trn', 'trn_received'],
};

/** True when `action` may run on a trainee in `state` under `rules`. */
export function isActionAllowed(action: TraineeAction, state: TraineeStatus, rules: Pick<TraineeRules, 'writesRefusedIn'>): boolean {
  if (action === 'update') return !rules.writesRefusedIn.includes(state);
  return ALLOWED_FROM[action].includes(state);
}
