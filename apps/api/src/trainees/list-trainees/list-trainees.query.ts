import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { TraineeListPage, TraineeListQuery } from '@app/read-model';
import { Infrastructure } from '../../infrastructure/infrastructure';

/** One page of the caller's trainees (docs/reference/API-FACTS.md §14). */
export class ListTraineesQuery {
  constructor(readonly query: TraineeListQuery) {}
}

@QueryHandler(ListTraineesQuery)
export class ListTraineesHandler implements IQueryHandler<ListTraineesQuery, TraineeListPage> {
  constructor(private readonly infra: Infrastructure) {}

  execute({ query }: ListTraineesQuery): Promise<TraineeListPage> {
    return this.infra.readModel.listTrainees(query);
  }
}
