import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Caller } from '@app/application';
import type { RequestData, Trainee, TraineeFields, TraineeRules } from '@app/domain';
import { Infrastructure } from '../../infrastructure/infrastructure';

/** PUT or PATCH /trainees/{trainee_id} as a command. */
export class UpdateTraineeCommand {
  constructor(
    readonly caller: Caller,
    readonly rules: TraineeRules,
    readonly traineeId: string,
    readonly data: RequestData<TraineeFields>,
  ) {}
}

/** Merges the sent fields into the trainee and re-validates the whole record (docs/reference/API-FACTS.md §7). */
@CommandHandler(UpdateTraineeCommand)
export class UpdateTraineeHandler implements ICommandHandler<UpdateTraineeCommand, Trainee> {
  constructor(private readonly infra: Infrastructure) {}

  execute(command: UpdateTraineeCommand): Promise<Trainee> {
    return this.infra.trainees.update(command.caller, command.rules, command.traineeId, command.data);
  }
}
