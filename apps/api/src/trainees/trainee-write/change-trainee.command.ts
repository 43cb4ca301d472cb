import { decide, type TraineeCommand } from '@app/trainees/decider';
import { handleTraineeCommand } from '@app/trainees/write';
import { traineeCommandHandler } from '../trainee-handlers';
import type { TraineeRequest } from '../trainee-request';

/** The decider commands that change an existing trainee's own record from a body. */
export type TraineeChange = Extract<TraineeCommand, { type: 'UpdateTrainee' | 'DeferTrainee' | 'WithdrawTrainee' | 'RecommendForAward' }>;

export type ChangeData<T extends TraineeChange['type']> = Extract<TraineeChange, { type: T }>['data'];

/** PUT, PATCH, defer, withdraw, recommend-for-qts (or its alias): the decider command's `type`, the request, the checked body. */
export class ChangeTraineeCommand<T extends TraineeChange['type'] = TraineeChange['type']> {
  constructor(
    readonly type: T,
    readonly request: TraineeRequest,
    readonly data: ChangeData<T>,
  ) {}
}

/**
 * Decides and appends the change with the version's rules (API-FACTS §7, §12.3–12.5; rulings 7, 8); the trainee after it. Throws
 * NotFound, StateTransitionError, ValidationFailed, MissingData, ConcurrentModification.
 */
export const ChangeTraineeHandler = traineeCommandHandler(ChangeTraineeCommand, (ports, { type, request, data }) =>
  handleTraineeCommand(ports, request.caller, request.traineeId, (state, { traineeId, now }) =>
    // `data` is the type's own body: the constructor's types tie the two.
    decide({ type, trainee_id: traineeId, ukprn: request.caller.ukprn, rules: request.contract.rules, now, data } as TraineeChange, state),
  ),
);
