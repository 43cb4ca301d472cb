import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { handleTraineeCommand, TRAINEE_WRITE_PORTS, type Caller, type TraineeWritePorts } from '@app/trainees/write';
import { decide, type RequestData, type TraineeRules } from '@app/trainees/decider';
import type { Trainee, TraineeFields } from '@app/trainees/record';

/** PUT or PATCH /trainees/{trainee_id} as a command: the caller, the version's rules, the id as sent and the checked body. */
export class UpdateTraineeCommand {
  constructor(
    readonly caller: Caller,
    readonly rules: TraineeRules,
    readonly traineeId: string,
    readonly data: RequestData<TraineeFields>,
  ) {}
}

/**
 * Merges the sent fields into the trainee and re-validates the whole record (docs/reference/API-FACTS.md §7):
 * `UpdateTrainee` decided on the trainee's state, `TraineeUpdated` appended (nothing when nothing
 * changes). Returns the trainee after it. Errors: NotFound, ValidationFailed, MissingData,
 * StateTransitionError, ConcurrentModification.
 */
@CommandHandler(UpdateTraineeCommand)
export class UpdateTraineeHandler implements ICommandHandler<UpdateTraineeCommand, Trainee> {
  constructor(@Inject(TRAINEE_WRITE_PORTS) private readonly ports: TraineeWritePorts) {}

  execute({ caller, rules, traineeId, data }: UpdateTraineeCommand): Promise<Trainee> {
    return handleTraineeCommand(this.ports, caller, traineeId, (state, { traineeId: id, now }) =>
      decide({ type: 'UpdateTrainee', trainee_id: id, ukprn: caller.ukprn, rules, data, now }, state),
    );
  }
}
