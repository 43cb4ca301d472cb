import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { decide, findDegree, type RequestData, type TraineeRules } from '@app/trainees/decider';
import type { Degree, DegreeFields, Trainee } from '@app/trainees/record';
import { handleTraineeCommand, TRAINEE_WRITE_PORTS, type Caller, type TraineeWritePorts } from '@app/trainees/write';

/** POST …/degrees: the caller, the version's rules, the trainee id as sent and the checked body. */
export class AddDegreeCommand {
  constructor(
    readonly caller: Caller,
    readonly rules: TraineeRules,
    readonly traineeId: string,
    readonly data: RequestData<DegreeFields>,
  ) {}
}

/** PUT or PATCH …/degrees/{degree_id}: partial, only the keys sent change (docs/reference/API-FACTS.md §11.7). */
export class UpdateDegreeCommand {
  constructor(
    readonly caller: Caller,
    readonly rules: TraineeRules,
    readonly traineeId: string,
    readonly degreeId: string,
    readonly data: RequestData<DegreeFields>,
  ) {}
}

/** DELETE …/degrees/{degree_id}. */
export class RemoveDegreeCommand {
  constructor(
    readonly caller: Caller,
    readonly rules: TraineeRules,
    readonly traineeId: string,
    readonly degreeId: string,
  ) {}
}

/**
 * Adds a degree under a new id (`DegreeAdded`); returns it as stored. Errors: the decider's
 * (DuplicateDegree among them), ConcurrentModification.
 */
@CommandHandler(AddDegreeCommand)
export class AddDegreeHandler implements ICommandHandler<AddDegreeCommand, Degree> {
  constructor(@Inject(TRAINEE_WRITE_PORTS) private readonly ports: TraineeWritePorts) {}

  async execute({ caller, rules, traineeId, data }: AddDegreeCommand): Promise<Degree> {
    const degreeId = this.ports.newId();
    const trainee = await handleTraineeCommand(this.ports, caller, traineeId, (state, { traineeId: id, now }) =>
      decide({ type: 'AddDegree', trainee_id: id, ukprn: caller.ukprn, rules, now, degree_id: degreeId, data }, state),
    );
    return findDegree(trainee, degreeId);
  }
}

/** Changes a degree (`DegreeUpdated`); returns it as stored. */
@CommandHandler(UpdateDegreeCommand)
export class UpdateDegreeHandler implements ICommandHandler<UpdateDegreeCommand, Degree> {
  constructor(@Inject(TRAINEE_WRITE_PORTS) private readonly ports: TraineeWritePorts) {}

  async execute({ caller, rules, traineeId, degreeId, data }: UpdateDegreeCommand): Promise<Degree> {
    const trainee = await handleTraineeCommand(this.ports, caller, traineeId, (state, { traineeId: id, now }) =>
      decide({ type: 'UpdateDegree', trainee_id: id, ukprn: caller.ukprn, rules, now, degree_id: degreeId, data }, state),
    );
    return findDegree(trainee, degreeId);
  }
}

/** Removes a degree (`DegreeRemoved`); returns the trainee after it (docs/reference/API-FACTS.md §4). */
@CommandHandler(RemoveDegreeCommand)
export class RemoveDegreeHandler implements ICommandHandler<RemoveDegreeCommand, Trainee> {
  constructor(@Inject(TRAINEE_WRITE_PORTS) private readonly ports: TraineeWritePorts) {}

  execute({ caller, rules, traineeId, degreeId }: RemoveDegreeCommand): Promise<Trainee> {
    return handleTraineeCommand(this.ports, caller, traineeId, (state, { traineeId: id, now }) =>
      decide({ type: 'RemoveDegree', trainee_id: id, ukprn: caller.ukprn, rules, now, degree_id: degreeId }, state),
    );
  }
}
