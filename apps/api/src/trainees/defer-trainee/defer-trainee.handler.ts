import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { handleTraineeCommand, TRAINEE_WRITE_PORTS, type Caller, type TraineeWritePorts } from '@app/trainees/write';
import { decide, type RequestData, type TraineeRules } from '@app/trainees/decider';
import type { Trainee, DeferralFields } from '@app/trainees/record';

/** POST …/defer as a command: the caller, the version's rules, the trainee id as sent and the checked body. */
export class DeferTraineeCommand {
  constructor(
    readonly caller: Caller,
    readonly rules: TraineeRules,
    readonly traineeId: string,
    readonly data: RequestData<DeferralFields>,
  ) {}
}

/**
 * Defers a trainee (docs/reference/API-FACTS.md §12.3): `DeferTrainee` decided on its state,
 * `TraineeDeferred` appended. Returns the trainee, deferred. Errors: NotFound,
 * StateTransitionError (state does not allow it), ValidationFailed, MissingData, ConcurrentModification.
 */
@CommandHandler(DeferTraineeCommand)
export class DeferTraineeHandler implements ICommandHandler<DeferTraineeCommand, Trainee> {
  constructor(@Inject(TRAINEE_WRITE_PORTS) private readonly ports: TraineeWritePorts) {}

  execute({ caller, rules, traineeId, data }: DeferTraineeCommand): Promise<Trainee> {
    return handleTraineeCommand(this.ports, caller, traineeId, (state, { traineeId: id, now }) =>
      decide({ type: 'DeferTrainee', trainee_id: id, ukprn: caller.ukprn, rules, now, data }, state),
    );
  }
}
