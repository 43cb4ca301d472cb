import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import {
  AS_OF_SCAN,
  listTraineesAsOf,
  type AsOfScan,
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
 * The provider's streams are folded by the {@link AS_OF_SCAN} (on the embedded store a thread of its
 * own, so HTTP is not held up by a large provider; elsewhere this thread, from the log as stored).
 */
@QueryHandler(ListTraineesAsOfQuery)
export class ListTraineesAsOfHandler implements IQueryHandler<ListTraineesAsOfQuery, TraineeAsOfPage> {
  constructor(
    @Inject(TRAINEE_READ_MODEL) private readonly trainees: TraineeReadModel,
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(AS_OF_SCAN) private readonly scan: AsOfScan,
  ) {}

  execute({ query, asOf }: ListTraineesAsOfQuery): Promise<TraineeAsOfPage> {
    return listTraineesAsOf(this.eventStore, this.trainees, query, asOf, this.scan);
  }
}
