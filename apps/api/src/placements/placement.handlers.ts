import { CommandHandler, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Caller } from '@app/application';
import { findPlacement, NotFound, type Placement, type PlacementFields, type RequestData, type Trainee, type TraineeRules } from '@app/domain';
import { Infrastructure } from '../infrastructure/infrastructure';

/** The caller's trainee from the read model, or NotFound (docs/DESIGN.md property 6). */
export async function readOwnTrainee(infra: Infrastructure, caller: Caller, traineeId: string): Promise<Trainee> {
  const trainee = await infra.readModel.getTrainee(traineeId);
  if (!trainee || trainee.ukprn !== caller.ukprn) throw new NotFound('Trainee');
  return trainee;
}

/** GET …/placements: the caller and the trainee id as sent. */
export class ListPlacementsQuery {
  constructor(readonly caller: Caller, readonly traineeId: string) {}
}

/** The trainee's placements in creation order; `[]` when it has none (docs/DESIGN.md ruling 9). */
@QueryHandler(ListPlacementsQuery)
export class ListPlacementsHandler implements IQueryHandler<ListPlacementsQuery, Placement[]> {
  constructor(private readonly infra: Infrastructure) {}
  async execute(q: ListPlacementsQuery): Promise<Placement[]> {
    return (await readOwnTrainee(this.infra, q.caller, q.traineeId)).placements;
  }
}

/** GET …/placements/{placement_id}. */
export class GetPlacementQuery {
  constructor(readonly caller: Caller, readonly traineeId: string, readonly placementId: string) {}
}

/** One placement of the caller's trainee; NotFound for another trainee's or an unknown one. */
@QueryHandler(GetPlacementQuery)
export class GetPlacementHandler implements IQueryHandler<GetPlacementQuery, Placement> {
  constructor(private readonly infra: Infrastructure) {}
  async execute(q: GetPlacementQuery): Promise<Placement> {
    return findPlacement(await readOwnTrainee(this.infra, q.caller, q.traineeId), q.placementId);
  }
}

/** POST …/placements: the caller, the version's rules and the checked body. */
export class AddPlacementCommand {
  constructor(readonly caller: Caller, readonly rules: TraineeRules, readonly traineeId: string, readonly data: RequestData<PlacementFields>) {}
}

/** Adds a placement (PlacementAdded); returns the stored placement. */
@CommandHandler(AddPlacementCommand)
export class AddPlacementHandler implements ICommandHandler<AddPlacementCommand, Placement> {
  constructor(private readonly infra: Infrastructure) {}
  async execute(c: AddPlacementCommand): Promise<Placement> {
    const { trainee, placementId } = await this.infra.trainees.addPlacement(c.caller, c.rules, c.traineeId, c.data);
    return findPlacement(trainee, placementId);
  }
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

/** Changes a placement (PlacementUpdated); returns it as stored. */
@CommandHandler(UpdatePlacementCommand)
export class UpdatePlacementHandler implements ICommandHandler<UpdatePlacementCommand, Placement> {
  constructor(private readonly infra: Infrastructure) {}
  async execute(c: UpdatePlacementCommand): Promise<Placement> {
    const trainee = await this.infra.trainees.updatePlacement(c.caller, c.rules, c.traineeId, c.placementId, c.data);
    return findPlacement(trainee, c.placementId);
  }
}

/** DELETE …/placements/{placement_id}. */
export class RemovePlacementCommand {
  constructor(readonly caller: Caller, readonly rules: TraineeRules, readonly traineeId: string, readonly placementId: string) {}
}

/** Removes a placement (PlacementRemoved); returns the parent trainee (docs/reference/API-FACTS.md §4). */
@CommandHandler(RemovePlacementCommand)
export class RemovePlacementHandler implements ICommandHandler<RemovePlacementCommand, Trainee> {
  constructor(private readonly infra: Infrastructure) {}
  execute(c: RemovePlacementCommand): Promise<Trainee> {
    return this.infra.trainees.removePlacement(c.caller, c.rules, c.traineeId, c.placementId);
  }
}

/** The placement slice's handlers, for the module. */
export const PLACEMENT_HANDLERS = [
  ListPlacementsHandler,
  GetPlacementHandler,
  AddPlacementHandler,
  UpdatePlacementHandler,
  RemovePlacementHandler,
];
