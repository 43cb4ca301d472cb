import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { decide, findPlacement, type RequestData, type TraineeRules } from '@app/trainees/decider';
import type { Placement, PlacementFields, Trainee } from '@app/trainees/record';
import { handleTraineeCommand, schoolsNamedBy, TRAINEE_WRITE_PORTS, type Caller, type TraineeWritePorts } from '@app/trainees/write';

/** POST …/placements: the caller, the version's rules, the trainee id as sent and the checked body. */
export class AddPlacementCommand {
  constructor(
    readonly caller: Caller,
    readonly rules: TraineeRules,
    readonly traineeId: string,
    readonly data: RequestData<PlacementFields>,
  ) {}
}

/** PUT or PATCH …/placements/{placement_id}. */
export class UpdatePlacementCommand {
  constructor(
    readonly caller: Caller,
    readonly rules: TraineeRules,
    readonly traineeId: string,
    readonly placementId: string,
    readonly data: RequestData<PlacementFields>,
  ) {}
}

/** DELETE …/placements/{placement_id}. */
export class RemovePlacementCommand {
  constructor(
    readonly caller: Caller,
    readonly rules: TraineeRules,
    readonly traineeId: string,
    readonly placementId: string,
  ) {}
}

/** The schools directory's entries for the URN a placement body names (a URN links the school, docs/reference/API-FACTS.md §10.3). */
function schoolsOf(ports: TraineeWritePorts, data: RequestData<PlacementFields>) {
  return schoolsNamedBy(ports.schools, data.kind === 'data' ? [data.fields] : []);
}

/** Adds a placement under a new id (`PlacementAdded`); returns it as stored. Errors: the decider's, ConcurrentModification. */
@CommandHandler(AddPlacementCommand)
export class AddPlacementHandler implements ICommandHandler<AddPlacementCommand, Placement> {
  constructor(@Inject(TRAINEE_WRITE_PORTS) private readonly ports: TraineeWritePorts) {}

  async execute({ caller, rules, traineeId, data }: AddPlacementCommand): Promise<Placement> {
    const placementId = this.ports.newId();
    const schools = await schoolsOf(this.ports, data);
    const trainee = await handleTraineeCommand(this.ports, caller, traineeId, (state, { traineeId: id, now }) =>
      decide({ type: 'AddPlacement', trainee_id: id, ukprn: caller.ukprn, rules, now, placement_id: placementId, data, schools }, state),
    );
    return findPlacement(trainee, placementId);
  }
}

/**
 * Changes a placement (`PlacementUpdated`); returns it as stored. Only a URN sent links a school: a
 * partial update without one unlinks it (docs/reference/API-FACTS.md §10.5).
 */
@CommandHandler(UpdatePlacementCommand)
export class UpdatePlacementHandler implements ICommandHandler<UpdatePlacementCommand, Placement> {
  constructor(@Inject(TRAINEE_WRITE_PORTS) private readonly ports: TraineeWritePorts) {}

  async execute({ caller, rules, traineeId, placementId, data }: UpdatePlacementCommand): Promise<Placement> {
    const schools = await schoolsOf(this.ports, data);
    const trainee = await handleTraineeCommand(this.ports, caller, traineeId, (state, { traineeId: id, now }) =>
      decide({ type: 'UpdatePlacement', trainee_id: id, ukprn: caller.ukprn, rules, now, placement_id: placementId, data, schools }, state),
    );
    return findPlacement(trainee, placementId);
  }
}

/** Removes a placement (`PlacementRemoved`); returns the trainee after it (docs/reference/API-FACTS.md §4). */
@CommandHandler(RemovePlacementCommand)
export class RemovePlacementHandler implements ICommandHandler<RemovePlacementCommand, Trainee> {
  constructor(@Inject(TRAINEE_WRITE_PORTS) private readonly ports: TraineeWritePorts) {}

  execute({ caller, rules, traineeId, placementId }: RemovePlacementCommand): Promise<Trainee> {
    return handleTraineeCommand(this.ports, caller, traineeId, (state, { traineeId: id, now }) =>
      decide({ type: 'RemovePlacement', trainee_id: id, ukprn: caller.ukprn, rules, now, placement_id: placementId }, state),
    );
  }
}
