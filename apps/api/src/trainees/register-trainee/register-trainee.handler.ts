import { registerTrainee, type Caller } from '@app/trainees/write';
import type { RequestData, TraineeRules } from '@app/trainees/decider';
import type { TraineeFields } from '@app/trainees/record';
import { traineeCommandHandler } from '../trainee-handlers';

/** POST /trainees as a command: the caller, the version's rules and the checked body `data`. */
export class RegisterTraineeCommand {
  constructor(
    readonly caller: Caller,
    readonly rules: TraineeRules,
    readonly data: RequestData<TraineeFields>,
  ) {}
}

/**
 * Registers a trainee through the write path's `registerTrainee` (the duplicate guard, one append,
 * read-your-writes). Returns the trainee. Errors: ValidationFailed, MissingData, DuplicateTrainee,
 * ConcurrentModification.
 */
export const RegisterTraineeHandler = traineeCommandHandler(RegisterTraineeCommand, (ports, { caller, rules, data }) =>
  registerTrainee(ports, caller, rules, data),
);
