import { decide, type TraineeCommand } from '@app/trainees/decider';
import { handleTraineeCommand } from '@app/trainees/write';
import { traineeCommandHandler } from '../trainee-handlers';
import type { TraineeRequest } from '../trainee-request';

/** The decider commands that change an existing trainee's own record from a request body. */
export type TraineeChange = Extract<TraineeCommand, { type: 'UpdateTrainee' | 'DeferTrainee' | 'WithdrawTrainee' | 'RecommendForAward' }>;

/** The checked body (`data`) that the change `T` carries. */
export type ChangeData<T extends TraineeChange['type']> = Extract<TraineeChange, { type: T }>['data'];

/**
 * PUT or PATCH /trainees/{trainee_id}, POST …/defer, …/withdraw, …/recommend-for-qts (or its alias)
 * as a command: the decider command's `type`, the request (caller, version's contract, trainee id
 * as sent) and the body after the version's wire checks.
 */
export class ChangeTraineeCommand<T extends TraineeChange['type'] = TraineeChange['type']> {
  constructor(
    readonly type: T,
    readonly request: TraineeRequest,
    readonly data: ChangeData<T>,
  ) {}
}

/**
 * Decides the change on the trainee's state with the version's rules and appends its event
 * (docs/reference/API-FACTS.md): `UpdateTrainee` merges the sent fields and re-validates the whole
 * record (§7; `TraineeUpdated`, nothing when nothing changes), `DeferTrainee` (§12.3;
 * `TraineeDeferred`), `WithdrawTrainee` (§12.4, docs/DESIGN.md ruling 7; `TraineeWithdrawn`),
 * `RecommendForAward` (§12.5, ruling 8; `TraineeRecommendedForAward`, then the registry process
 * manager awards). Returns the trainee after it. Errors: NotFound, StateTransitionError (the state,
 * or for a withdrawal ITT not started), ValidationFailed, MissingData, ConcurrentModification.
 */
export const ChangeTraineeHandler = traineeCommandHandler(ChangeTraineeCommand, (ports, { type, request, data }) =>
  handleTraineeCommand(ports, request.caller, request.traineeId, (state, { traineeId, now }) =>
    // `data` is the type's own body: the constructor's types tie the two.
    decide({ type, trainee_id: traineeId, ukprn: request.caller.ukprn, rules: request.contract.rules, now, data } as TraineeChange, state),
  ),
);
