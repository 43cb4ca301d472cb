import { Inject } from '@nestjs/common';
import { CommandHandler, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import { handleTraineeCommand, TRAINEE_WRITE_PORTS, type Caller, type TraineeWritePorts } from '@app/application';
import { decide, type RequestData, type Trainee, type TraineeRules } from '@app/domain';
import { findOwnTrainee, TRAINEE_READ_MODEL, type TraineeReadModel } from '@app/read-model';
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

/** POST …/<items>: the kind, the caller, the version's rules, the trainee id as sent and the checked body. */
export class AddItemCommand {
  constructor(
    readonly kind: AnySubResource,
    readonly caller: Caller,
    readonly rules: TraineeRules,
    readonly traineeId: string,
    readonly data: RequestData<unknown>,
  ) {}
}

/** PUT or PATCH …/<items>/{id}. */
export class UpdateItemCommand {
  constructor(
    readonly kind: AnySubResource,
    readonly caller: Caller,
    readonly rules: TraineeRules,
    readonly traineeId: string,
    readonly itemId: string,
    readonly data: RequestData<unknown>,
  ) {}
}

/** DELETE …/<items>/{id}. */
export class RemoveItemCommand {
  constructor(
    readonly kind: AnySubResource,
    readonly caller: Caller,
    readonly rules: TraineeRules,
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

/** Adds an item under a new id (PlacementAdded, DegreeAdded); returns it as stored. Errors: the domain's, ConcurrentModification. */
@CommandHandler(AddItemCommand)
export class AddItemHandler implements ICommandHandler<AddItemCommand, unknown> {
  constructor(@Inject(TRAINEE_WRITE_PORTS) private readonly ports: TraineeWritePorts) {}

  async execute({ kind, caller, rules, traineeId, data }: AddItemCommand): Promise<unknown> {
    const itemId = this.ports.newId();
    const schools = await kind.schoolsFor(this.ports.schools, data);
    const trainee = await handleTraineeCommand(this.ports, caller, traineeId, (state, { traineeId: id, now }) =>
      decide(kind.add({ trainee_id: id, ukprn: caller.ukprn, rules, now }, itemId, data, schools), state),
    );
    return kind.find(trainee, itemId);
  }
}

/** Changes an item (PlacementUpdated, DegreeUpdated); returns it as stored. */
@CommandHandler(UpdateItemCommand)
export class UpdateItemHandler implements ICommandHandler<UpdateItemCommand, unknown> {
  constructor(@Inject(TRAINEE_WRITE_PORTS) private readonly ports: TraineeWritePorts) {}

  async execute({ kind, caller, rules, traineeId, itemId, data }: UpdateItemCommand): Promise<unknown> {
    // Only a URN sent links a school: a partial update without one unlinks (docs/reference/API-FACTS.md §10.5).
    const schools = await kind.schoolsFor(this.ports.schools, data);
    const trainee = await handleTraineeCommand(this.ports, caller, traineeId, (state, { traineeId: id, now }) =>
      decide(kind.update({ trainee_id: id, ukprn: caller.ukprn, rules, now }, itemId, data, schools), state),
    );
    return kind.find(trainee, itemId);
  }
}

/** Removes an item (PlacementRemoved, DegreeRemoved); returns the parent trainee (docs/reference/API-FACTS.md §4). */
@CommandHandler(RemoveItemCommand)
export class RemoveItemHandler implements ICommandHandler<RemoveItemCommand, Trainee> {
  constructor(@Inject(TRAINEE_WRITE_PORTS) private readonly ports: TraineeWritePorts) {}

  execute({ kind, caller, rules, traineeId, itemId }: RemoveItemCommand): Promise<Trainee> {
    return handleTraineeCommand(this.ports, caller, traineeId, (state, { traineeId: id, now }) =>
      decide(kind.remove({ trainee_id: id, ukprn: caller.ukprn, rules, now }, itemId), state),
    );
  }
}

/** The sub-resource slice's handlers, for the module. */
export const SUB_RESOURCE_HANDLERS = [ListItemsHandler, GetItemHandler, AddItemHandler, UpdateItemHandler, RemoveItemHandler];
