import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Caller } from '@app/application';
import type { Trainee } from '@app/domain';
import { findOwnTrainee, TRAINEE_READ_MODEL, type TraineeReadModel } from '@app/read-model';

/** One trainee of the caller's provider, by id (case-insensitive, docs/reference/API-FACTS.md §1.10). */
export class GetTraineeQuery {
  constructor(
    readonly caller: Caller,
    readonly traineeId: string,
  ) {}
}

/** Reads the trainee read model; another provider's trainee is NotFound (docs/DESIGN.md property 6). */
@QueryHandler(GetTraineeQuery)
export class GetTraineeHandler implements IQueryHandler<GetTraineeQuery, Trainee> {
  constructor(@Inject(TRAINEE_READ_MODEL) private readonly trainees: TraineeReadModel) {}

  execute({ caller, traineeId }: GetTraineeQuery): Promise<Trainee> {
    return findOwnTrainee(this.trainees, caller.ukprn, traineeId);
  }
}
