import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { registerTrainee, TRAINEE_WRITE_PORTS, type Caller, type TraineeWritePorts } from '@app/trainees/write';
import type { RequestData, TraineeRules } from '@app/trainees/decider';
import type { Trainee, TraineeFields } from '@app/trainees/record';

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
@CommandHandler(RegisterTraineeCommand)
export class RegisterTraineeHandler implements ICommandHandler<RegisterTraineeCommand, Trainee> {
  constructor(@Inject(TRAINEE_WRITE_PORTS) private readonly ports: TraineeWritePorts) {}

  execute({ caller, rules, data }: RegisterTraineeCommand): Promise<Trainee> {
    return registerTrainee(this.ports, caller, rules, data);
  }
}
