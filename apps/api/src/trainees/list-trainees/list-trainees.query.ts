import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { TRAINEE_READ_MODEL, type TraineeListPage, type TraineeListQuery, type TraineeReadModel } from '@app/read-model';

/** One page of the caller's trainees (docs/reference/API-FACTS.md §14). */
export class ListTraineesQuery {
  constructor(readonly query: TraineeListQuery) {}
}

/** Reads one page from the trainee read model's list index (the query names the caller's provider). */
@QueryHandler(ListTraineesQuery)
export class ListTraineesHandler implements IQueryHandler<ListTraineesQuery, TraineeListPage> {
  constructor(@Inject(TRAINEE_READ_MODEL) private readonly trainees: TraineeReadModel) {}

  execute({ query }: ListTraineesQuery): Promise<TraineeListPage> {
    return this.trainees.listTrainees(query);
  }
}
