import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Caller } from '@app/trainees/write';
import type { ApiVersion } from '@app/trainees/record';
import { findOwnTraineeAnswer, TRAINEE_READ_MODEL, type TraineeReadModel } from '@app/trainees/read';

/** One trainee of the caller's provider, by id (case-insensitive, docs/reference/API-FACTS.md §1.10), as answer bytes of `version`. */
export class GetTraineeQuery {
  constructor(
    readonly caller: Caller,
    readonly traineeId: string,
    readonly version: ApiVersion,
  ) {}
}

/**
 * Reads the trainee's stored answer bytes (docs/DESIGN.md "Answers stored as bytes"): the UTF-8 JSON
 * of the trainee with placements and degrees. Another provider's trainee is NotFound (docs/DESIGN.md
 * property 6).
 */
@QueryHandler(GetTraineeQuery)
export class GetTraineeHandler implements IQueryHandler<GetTraineeQuery, Buffer> {
  constructor(@Inject(TRAINEE_READ_MODEL) private readonly trainees: TraineeReadModel) {}

  execute({ caller, traineeId, version }: GetTraineeQuery): Promise<Buffer> {
    return findOwnTraineeAnswer(this.trainees, caller.ukprn, traineeId, version);
  }
}
