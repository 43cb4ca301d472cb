import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { findPlacement } from '@app/trainees/decider';
import { findOwnTrainee, TRAINEE_READ_MODEL, type TraineeReadModel } from '@app/trainees/read';
import type { Placement } from '@app/trainees/record';
import type { Caller } from '@app/trainees/write';

/** GET …/placements: the caller and the trainee id as sent. */
export class ListPlacementsQuery {
  constructor(
    readonly caller: Caller,
    readonly traineeId: string,
  ) {}
}

/** GET …/placements/{placement_id}. */
export class GetPlacementQuery {
  constructor(
    readonly caller: Caller,
    readonly traineeId: string,
    readonly placementId: string,
  ) {}
}

/**
 * The caller's trainee's placements in creation order; `[]` when none (docs/DESIGN.md ruling 9).
 * NotFound for another provider's trainee.
 */
@QueryHandler(ListPlacementsQuery)
export class ListPlacementsHandler implements IQueryHandler<ListPlacementsQuery, Placement[]> {
  constructor(@Inject(TRAINEE_READ_MODEL) private readonly trainees: TraineeReadModel) {}

  async execute({ caller, traineeId }: ListPlacementsQuery): Promise<Placement[]> {
    return (await findOwnTrainee(this.trainees, caller.ukprn, traineeId)).placements;
  }
}

/** One placement of the caller's trainee; NotFound for another provider's trainee or an unknown placement. */
@QueryHandler(GetPlacementQuery)
export class GetPlacementHandler implements IQueryHandler<GetPlacementQuery, Placement> {
  constructor(@Inject(TRAINEE_READ_MODEL) private readonly trainees: TraineeReadModel) {}

  async execute({ caller, traineeId, placementId }: GetPlacementQuery): Promise<Placement> {
    return findPlacement(await findOwnTrainee(this.trainees, caller.ukprn, traineeId), placementId);
  }
}
