import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { handleTraineeCommand, TRAINEE_WRITE_PORTS, type Caller, type TraineeWritePorts } from '@app/trainees/write';
import { decide, type RequestData, type TraineeRules } from '@app/trainees/decider';
import type { Trainee, WithdrawalFields } from '@app/trainees/record';

/** POST …/withdraw as a command: the caller, the version's rules, the trainee id as sent and the checked body. */
export class WithdrawTraineeCommand {
  constructor(
    readonly caller: Caller,
    readonly rules: TraineeRules,
    readonly traineeId: string,
    readonly data: RequestData<WithdrawalFields>,
  ) {}
}

/**
 * Withdraws a trainee (docs/reference/API-FACTS.md §12.4; docs/DESIGN.md ruling 7): `WithdrawTrainee`
 * decided on its state, `TraineeWithdrawn` appended. Returns the trainee, withdrawn. Errors:
 * NotFound, StateTransitionError (state, or ITT not started), ValidationFailed, MissingData,
 * ConcurrentModification.
 */
@CommandHandler(WithdrawTraineeCommand)
export class WithdrawTraineeHandler implements ICommandHandler<WithdrawTraineeCommand, Trainee> {
  constructor(@Inject(TRAINEE_WRITE_PORTS) private readonly ports: TraineeWritePorts) {}

  execute({ caller, rules, traineeId, data }: WithdrawTraineeCommand): Promise<Trainee> {
    return handleTraineeCommand(this.ports, caller, traineeId, (state, { traineeId: id, now }) =>
      decide({ type: 'WithdrawTrainee', trainee_id: id, ukprn: caller.ukprn, rules, now, data }, state),
    );
  }
}
