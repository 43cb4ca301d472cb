import { Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Answers, IdParam, NotFoundAnswer, Operation } from '../../kernel/operation.decorators';
import type { Caller } from '@app/application';
import type { VersionContract } from '@app/contract';
import type { Trainee } from '@app/domain';
import { ApiController } from '../../kernel/api-controller.decorator';
import { Contract, CurrentCaller } from '../../kernel/request-context';
import { GetTraineeQuery } from './get-trainee.query';

@ApiController('trainees', 'Trainees')
export class GetTraineeController {
  constructor(private readonly queries: QueryBus) {}

  /**
   * GET /api/{version}/trainees/{trainee_id}: 200 `{data: Trainee}` with placements and degrees
   * (docs/DESIGN.md ruling 1); 404 `Trainee(s) not found`.
   */
  @Get(':trainee_id')
  @Operation('getTrainee', 'One trainee, with its placements and degrees')
  @IdParam('trainee_id')
  @Answers(200, 'The trainee.', 'TraineeResponse')
  @NotFoundAnswer()
  async get(
    @CurrentCaller() caller: Caller,
    @Contract() contract: VersionContract,
    @Param('trainee_id') id: string,
  ): Promise<{ data: unknown }> {
    const trainee = await this.queries.execute<GetTraineeQuery, Trainee>(new GetTraineeQuery(caller, id));
    return { data: contract.output.serializeTrainee(trainee, { nested: true }) };
  }
}
