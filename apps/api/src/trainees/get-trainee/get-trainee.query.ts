import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Caller } from '@app/application';
import { NotFound, type Trainee } from '@app/domain';
import { Infrastructure } from '../../infrastructure/infrastructure';

/** One trainee of the caller's provider, by id (case-insensitive, docs/reference/API-FACTS.md §1.10). */
export class GetTraineeQuery {
  constructor(
    readonly caller: Caller,
    readonly traineeId: string,
  ) {}
}

/** Reads the trainee read model; another provider's trainee is NotFound (docs/DESIGN.md property 6). */
@QueryHandler(GetTraineeQuery)
export class GetTraineeHandler implements IQueryHandler<GetTraineeQuery, Trainee> {
  constructor(private readonly infra: Infrastructure) {}

  async execute(query: GetTraineeQuery): Promise<Trainee> {
    const trainee = await this.infra.readModel.getTrainee(query.traineeId);
    if (!trainee || trainee.ukprn !== query.caller.ukprn) throw new NotFound('Trainee');
    return trainee;
  }
}
