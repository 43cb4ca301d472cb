import { Get, Header, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Answers, IdParam, NotFoundAnswer, Operation } from '../../openapi/operation.decorators';
import type { Caller } from '@app/trainees/write';
import type { VersionContract } from '@app/trainees/contract';
import { ApiController } from '../../openapi/api-controller.decorator';
import { dataAnswer, JSON_CONTENT_TYPE } from '../../bodies/json-bytes';
import { Contract, CurrentCaller } from '../../auth/request-context';
import { GetTraineeQuery } from './get-trainee.query';

@ApiController('trainees', 'Trainees')
export class GetTraineeController {
  constructor(private readonly queries: QueryBus) {}

  /**
   * GET /api/{version}/trainees/{trainee_id}: 200 `{data: Trainee}` with placements and degrees
   * (docs/DESIGN.md ruling 1), sent as the bytes the projection stored for the version
   * (docs/DESIGN.md "Answers stored as bytes"); 404 `Trainee(s) not found`.
   */
  @Get(':trainee_id')
  @Operation('getTrainee', 'One trainee, with its placements and degrees')
  @IdParam('trainee_id')
  @Answers(200, 'The trainee.', 'TraineeResponse')
  @NotFoundAnswer()
  @Header('content-type', JSON_CONTENT_TYPE)
  async get(@CurrentCaller() caller: Caller, @Contract() contract: VersionContract, @Param('trainee_id') id: string): Promise<Buffer> {
    return dataAnswer(await this.queries.execute<GetTraineeQuery, Buffer>(new GetTraineeQuery(caller, id, contract.version)));
  }
}
