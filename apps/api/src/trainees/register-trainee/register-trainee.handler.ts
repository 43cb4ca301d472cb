import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Caller } from '@app/application';
import type { Trainee } from '@app/domain';
import { Infrastructure } from '../../infrastructure/infrastructure';

/** POST /trainees as a command: the caller and the request's `data` as sent. */
export class RegisterTraineeCommand {
  constructor(
    readonly caller: Caller,
    readonly data: unknown,
  ) {}
}

/** Registers a trainee with nested placements and degrees in one append (docs/spec/trainee-records-api.md "POST /trainees"). */
@CommandHandler(RegisterTraineeCommand)
export class RegisterTraineeHandler implements ICommandHandler<RegisterTraineeCommand, Trainee> {
  constructor(private readonly infra: Infrastructure) {}

  execute(command: RegisterTraineeCommand): Promise<Trainee> {
    return this.infra.trainees.register(command.caller, command.data);
  }
}
