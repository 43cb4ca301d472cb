import { CommandHandler, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Caller } from '@app/application';
import { findDegree, type Degree, type DegreeFields, type RequestData, type Trainee, type TraineeRules } from '@app/domain';
import { Infrastructure } from '../infrastructure/infrastructure';
import { readOwnTrainee } from '../placements/placement.handlers';

/** GET …/degrees: the caller and the trainee id as sent. */
export class ListDegreesQuery {
  constructor(readonly caller: Caller, readonly traineeId: string) {}
}

/** The trainee's degrees in creation order; `[]` when it has none (docs/DESIGN.md ruling 9). */
@QueryHandler(ListDegreesQuery)
export class ListDegreesHandler implements IQueryHandler<ListDegreesQuery, Degree[]> {
  constructor(private readonly infra: Infrastructure) {}
  async execute(q: ListDegreesQuery): Promise<Degree[]> {
    return (await readOwnTrainee(this.infra, q.caller, q.traineeId)).degrees;
  }
}

/** GET …/degrees/{degree_id}. */
export class GetDegreeQuery {
  constructor(readonly caller: Caller, readonly traineeId: string, readonly degreeId: string) {}
}

/** One degree of the caller's trainee; NotFound for another trainee's or an unknown one. */
@QueryHandler(GetDegreeQuery)
export class GetDegreeHandler implements IQueryHandler<GetDegreeQuery, Degree> {
  constructor(private readonly infra: Infrastructure) {}
  async execute(q: GetDegreeQuery): Promise<Degree> {
    return findDegree(await readOwnTrainee(this.infra, q.caller, q.traineeId), q.degreeId);
  }
}

/** POST …/degrees: the caller, the version's rules and the checked body. */
export class AddDegreeCommand {
  constructor(readonly caller: Caller, readonly rules: TraineeRules, readonly traineeId: string, readonly data: RequestData<DegreeFields>) {}
}

/** Adds a degree (DegreeAdded) unless it duplicates one the trainee has; returns the stored degree. */
@CommandHandler(AddDegreeCommand)
export class AddDegreeHandler implements ICommandHandler<AddDegreeCommand, Degree> {
  constructor(private readonly infra: Infrastructure) {}
  async execute(c: AddDegreeCommand): Promise<Degree> {
    const { trainee, degreeId } = await this.infra.trainees.addDegree(c.caller, c.rules, c.traineeId, c.data);
    return findDegree(trainee, degreeId);
  }
}

/** PUT or PATCH …/degrees/{degree_id}. */
export class UpdateDegreeCommand {
  constructor(
    readonly caller: Caller,
    readonly rules: TraineeRules,
    readonly traineeId: string,
    readonly degreeId: string,
    readonly data: RequestData<DegreeFields>,
  ) {}
}

/** Changes a degree (DegreeUpdated); returns it as stored. */
@CommandHandler(UpdateDegreeCommand)
export class UpdateDegreeHandler implements ICommandHandler<UpdateDegreeCommand, Degree> {
  constructor(private readonly infra: Infrastructure) {}
  async execute(c: UpdateDegreeCommand): Promise<Degree> {
    const trainee = await this.infra.trainees.updateDegree(c.caller, c.rules, c.traineeId, c.degreeId, c.data);
    return findDegree(trainee, c.degreeId);
  }
}

/** DELETE …/degrees/{degree_id}. */
export class RemoveDegreeCommand {
  constructor(readonly caller: Caller, readonly rules: TraineeRules, readonly traineeId: string, readonly degreeId: string) {}
}

/** Removes a degree (DegreeRemoved); returns the parent trainee (docs/reference/API-FACTS.md §4). */
@CommandHandler(RemoveDegreeCommand)
export class RemoveDegreeHandler implements ICommandHandler<RemoveDegreeCommand, Trainee> {
  constructor(private readonly infra: Infrastructure) {}
  execute(c: RemoveDegreeCommand): Promise<Trainee> {
    return this.infra.trainees.removeDegree(c.caller, c.rules, c.traineeId, c.degreeId);
  }
}

/** The degree slice's handlers, for the module. */
export const DEGREE_HANDLERS = [ListDegreesHandler, GetDegreeHandler, AddDegreeHandler, UpdateDegreeHandler, RemoveDegreeHandler];
