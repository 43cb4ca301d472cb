import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Caller } from '@app/trainees/write';
import { findOwnTrainee, TRAINEE_READ_MODEL, type TraineeReadModel } from '@app/trainees/read';
import type { AnySubResource } from './sub-resource';

/** GET …/<items>: the kind, the caller and the trainee id as sent. */
export class ListItemsQuery {
  constructor(
    readonly kind: AnySubResource,
    readonly caller: Caller,
    readonly traineeId: string,
  ) {}
}

/** GET …/<items>/{id}. */
export class GetItemQuery {
  constructor(
    readonly kind: AnySubResource,
    readonly caller: Caller,
    readonly traineeId: string,
    readonly itemId: string,
  ) {}
}

/**
 * The caller's trainee's items in creation order; `[]` when it has none (docs/DESIGN.md ruling 9). NotFound for another provider's
 * trainee.
 */
@QueryHandler(ListItemsQuery)
export class ListItemsHandler implements IQueryHandler<ListItemsQuery, unknown[]> {
  constructor(@Inject(TRAINEE_READ_MODEL) private readonly trainees: TraineeReadModel) {}

  async execute({ kind, caller, traineeId }: ListItemsQuery): Promise<unknown[]> {
    return kind.itemsOf(await findOwnTrainee(this.trainees, caller.ukprn, traineeId));
  }
}

/** One item of the caller's trainee; NotFound for another provider's trainee or an unknown item. */
@QueryHandler(GetItemQuery)
export class GetItemHandler implements IQueryHandler<GetItemQuery, unknown> {
  constructor(@Inject(TRAINEE_READ_MODEL) private readonly trainees: TraineeReadModel) {}

  async execute({ kind, caller, traineeId, itemId }: GetItemQuery): Promise<unknown> {
    return kind.find(await findOwnTrainee(this.trainees, caller.ukprn, traineeId), itemId);
  }
}
