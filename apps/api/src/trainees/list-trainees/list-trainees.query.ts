import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { ApiVersion } from '@app/trainees/record';
import { TRAINEE_READ_MODEL, type TraineeAnswerPage, type TraineeListQuery, type TraineeReadModel } from '@app/trainees/read';

/** One page of the caller's trainees (docs/reference/API-FACTS.md §14), as list items of `version`. */
export class ListTraineesQuery {
  constructor(
    readonly query: TraineeListQuery,
    readonly version: ApiVersion,
  ) {}
}

/**
 * Reads one page from the trainee read model's list index (the query names the caller's provider):
 * the stored item bytes of the version (docs/DESIGN.md "Answers stored as bytes").
 */
@QueryHandler(ListTraineesQuery)
export class ListTraineesHandler implements IQueryHandler<ListTraineesQuery, TraineeAnswerPage> {
  constructor(@Inject(TRAINEE_READ_MODEL) private readonly trainees: TraineeReadModel) {}

  execute({ query, version }: ListTraineesQuery): Promise<TraineeAnswerPage> {
    return this.trainees.listTraineeAnswers(query, version);
  }
}
