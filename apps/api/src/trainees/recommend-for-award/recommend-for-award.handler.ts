import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { handleTraineeCommand, TRAINEE_WRITE_PORTS, type Caller, type TraineeWritePorts } from '@app/trainees/write';
import { decide, type RequestData, type TraineeRules } from '@app/trainees/decider';
import type { Trainee, RecommendationFields } from '@app/trainees/record';

/** POST …/recommend-for-qts (or its alias) as a command: the caller, the version's rules, the trainee id as sent and the checked body. */
export class RecommendForAwardCommand {
  constructor(
    readonly caller: Caller,
    readonly rules: TraineeRules,
    readonly traineeId: string,
    readonly data: RequestData<RecommendationFields>,
  ) {}
}

/**
 * Recommends a trainee for QTS or EYTS (docs/reference/API-FACTS.md §12.5; docs/DESIGN.md ruling 8):
 * `RecommendForAward` decided on its state, `TraineeRecommendedForAward` appended; the registry
 * process manager then awards. Returns the trainee, recommended. Errors: NotFound,
 * StateTransitionError, ValidationFailed, MissingData, ConcurrentModification.
 */
@CommandHandler(RecommendForAwardCommand)
export class RecommendForAwardHandler implements ICommandHandler<RecommendForAwardCommand, Trainee> {
  constructor(@Inject(TRAINEE_WRITE_PORTS) private readonly ports: TraineeWritePorts) {}

  execute({ caller, rules, traineeId, data }: RecommendForAwardCommand): Promise<Trainee> {
    return handleTraineeCommand(this.ports, caller, traineeId, (state, { traineeId: id, now }) =>
      decide({ type: 'RecommendForAward', trainee_id: id, ukprn: caller.ukprn, rules, now, data }, state),
    );
  }
}
