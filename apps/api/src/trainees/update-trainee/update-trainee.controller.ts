import { HttpCode, Param, Patch, Put, UseInterceptors } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Answers, IdParam, Operation, Writes } from '../../openapi/operation.decorators';
import type { Caller } from '@app/trainees/write';
import type { VersionContract } from '@app/trainees/contract';
import type { RequestData } from '@app/trainees/decider';
import type { Trainee, TraineeFields } from '@app/trainees/record';
import { EnhancedErrorsInterceptor } from '../../errors/enhanced-errors.interceptor';
import { ApiController } from '../../openapi/api-controller.decorator';
import { Contract, CurrentCaller } from '../../auth/request-context';
import { WireBody } from '../../bodies/wire-body';
import { UpdateTraineeCommand } from './update-trainee.handler';

@ApiController('trainees', 'Trainees')
@UseInterceptors(EnhancedErrorsInterceptor)
export class UpdateTraineeController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * PUT /api/{version}/trainees/{trainee_id}: merge semantics, identical to PATCH (docs/reference/API-FACTS.md §7.1).
   * 200 `{data: Trainee}` (unchanged when `data` holds nothing to change, §7.3); 404 unknown
   * trainee or another provider's; 422 on any failed rule (and StateTransitionError where the
   * version refuses writes in recommended_for_award, withdrawn, awarded). With `Enhanced-Errors:
   * true` a validation 422 is keyed by field (§5.4).
   */
  @Put(':trainee_id')
  @Operation(
    'replaceTrainee',
    'Change a trainee (merge, as PATCH)',
    'The fields sent replace the stored ones; the merged record is checked with the create rules. A body holding nothing to change answers the trainee unchanged.',
  )
  @IdParam('trainee_id')
  @Writes('TraineeUpdateRequest', { notFound: true, enhancedErrors: true })
  @Answers(200, 'The trainee after the change.', 'TraineeResponse')
  @HttpCode(200)
  put(
    @CurrentCaller() caller: Caller,
    @Contract() contract: VersionContract,
    @Param('trainee_id') id: string,
    @WireBody('traineeUpdate') data: RequestData<TraineeFields>,
  ): Promise<{ data: unknown }> {
    return this.update(caller, contract, id, data);
  }

  /** PATCH /api/{version}/trainees/{trainee_id}: as PUT. */
  @Patch(':trainee_id')
  @Operation('updateTrainee', 'Change a trainee (merge)', 'As PUT.')
  @IdParam('trainee_id')
  @Writes('TraineeUpdateRequest', { notFound: true, enhancedErrors: true })
  @Answers(200, 'The trainee after the change.', 'TraineeResponse')
  @HttpCode(200)
  patch(
    @CurrentCaller() caller: Caller,
    @Contract() contract: VersionContract,
    @Param('trainee_id') id: string,
    @WireBody('traineeUpdate') data: RequestData<TraineeFields>,
  ): Promise<{ data: unknown }> {
    return this.update(caller, contract, id, data);
  }

  private async update(
    caller: Caller,
    contract: VersionContract,
    id: string,
    data: RequestData<TraineeFields>,
  ): Promise<{ data: unknown }> {
    const trainee = await this.commands.execute<UpdateTraineeCommand, Trainee>(new UpdateTraineeCommand(caller, contract.rules, id, data));
    return { data: contract.output.serializeTrainee(trainee, { nested: true }) };
  }
}
