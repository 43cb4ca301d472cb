import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { handleTraineeCommand, TRAINEE_WRITE_PORTS, type Caller, type TraineeWritePorts } from '@app/trainees/write';
import { decide, type RequestData, type Trainee, type TraineeRules } from '@app/trainees/decider';
import type { AnySubResource } from './sub-resource';

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
