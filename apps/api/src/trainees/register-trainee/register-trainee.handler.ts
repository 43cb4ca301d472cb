import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Caller } from '@app/application';
import type { RequestData, Trainee, TraineeFields, TraineeRules } from '@app/domain';
import { Infrastructure } from '../../infrastructure/infrastructure';

/** POST /trainees as a command: the caller, the version's rules and the checked body `data`. */
export class RegisterTraineeCommand {
  constructor(
    readonly caller: Caller,
    readonly rules: TraineeRules,
    readonly data: RequestData<TraineeFields>,
  ) {}
}

/** Registers a trainee with nested placements and degrees in one append (docs/spec/trainee-records-api.md "POST /trainees"). */
@CommandHandler(RegisterTraineeCommand)
export class RegisterTraineeHandler implements ICommandHandler<RegisterTraineeCommand, Trainee> {
  constructor(private readonly infra: Infrastructure) {}

  execute(command: RegisterTraineeCommand): Promise<Trainee> {
    return this.infra.trainees.register(command.caller, command.rules, command.data);
  }
}
