import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import {
  listTraineesAsOf,
  TRAINEE_READ_MODEL,
  type TraineeAsOfPage,
  type TraineeListQuery,
  type TraineeReadModel,
} from '@app/trainees/read';
import { EVENT_STORE, type EventStore } from '@app/event-sourcing';

/** One page of the caller's trainees as the list would have answered it at `asOf` (`query.today` is that instant's UTC date). */
export class ListTraineesAsOfQuery {
  constructor(
    readonly query: TraineeListQuery,
    readonly asOf: Date,
  ) {}
}

/**
 * Replays each of the caller's trainees' streams up to the instant (`listTraineesAsOf`,
 * docs/DESIGN.md "A provider's trainees at an instant"): the read model only names the provider's
 * trainees; every value answered is the event log's. Returns the page's trainees as they stood then.
 */
@QueryHandler(ListTraineesAsOfQuery)
export class ListTraineesAsOfHandler implements IQueryHandler<ListTraineesAsOfQuery, TraineeAsOfPage> {
  constructor(
    @Inject(TRAINEE_READ_MODEL) private readonly trainees: TraineeReadModel,
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
  ) {}

  execute({ query, asOf }: ListTraineesAsOfQuery): Promise<TraineeAsOfPage> {
    return listTraineesAsOf(this.eventStore, this.trainees, query, asOf);
  }
}
