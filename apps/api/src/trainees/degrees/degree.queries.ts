import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { findDegree } from '@app/trainees/decider';
import { findOwnTrainee, TRAINEE_READ_MODEL, type TraineeReadModel } from '@app/trainees/read';
import type { Degree } from '@app/trainees/record';
import type { Caller } from '@app/trainees/write';

/** GET …/degrees: the caller and the trainee id as sent. */
export class ListDegreesQuery {
  constructor(
    readonly caller: Caller,
    readonly traineeId: string,
  ) {}
}

/** GET …/degrees/{degree_id}. */
export class GetDegreeQuery {
  constructor(
    readonly caller: Caller,
    readonly traineeId: string,
    readonly degreeId: string,
  ) {}
}

/**
 * The caller's trainee's degrees in creation order; `[]` when none (docs/DESIGN.md ruling 9).
 * NotFound for another provider's trainee.
 */
@QueryHandler(ListDegreesQuery)
export class ListDegreesHandler implements IQueryHandler<ListDegreesQuery, Degree[]> {
  constructor(@Inject(TRAINEE_READ_MODEL) private readonly trainees: TraineeReadModel) {}

  async execute({ caller, traineeId }: ListDegreesQuery): Promise<Degree[]> {
    return (await findOwnTrainee(this.trainees, caller.ukprn, traineeId)).degrees;
  }
}

/** One degree of the caller's trainee; NotFound for another provider's trainee or an unknown degree. */
@QueryHandler(GetDegreeQuery)
export class GetDegreeHandler implements IQueryHandler<GetDegreeQuery, Degree> {
  constructor(@Inject(TRAINEE_READ_MODEL) private readonly trainees: TraineeReadModel) {}

  async execute({ caller, traineeId, degreeId }: GetDegreeQuery): Promise<Degree> {
    return findDegree(await findOwnTrainee(this.trainees, caller.ukprn, traineeId), degreeId);
  }
}
