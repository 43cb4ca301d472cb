import { HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Caller } from '@app/trainees/write';
import type { VersionContract } from '@app/trainees/contract';
import type { DeferralFields, Trainee } from '@app/trainees/record';
import type { RequestData } from '@app/trainees/decider';
import { ApiController } from '../../openapi/api-controller.decorator';
import { Contract, CurrentCaller } from '../../auth/request-context';
import { WireBody } from '../../bodies/wire-body';
import { Answers, IdParam, Operation, Writes } from '../../openapi/operation.decorators';
import { DeferTraineeCommand } from './defer-trainee.handler';

/**
 * POST /api/{version}/trainees/{trainee_id}/defer (docs/spec/trainee-records-api.md "States and
 * transitions"; docs/reference/API-FACTS.md §12.3).
 */
@ApiController('trainees/:trainee_id', 'Lifecycle')
export class DeferTraineeController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * `{data: {defer_date, defer_reason}}`: 200 `{data: Trainee}` in state `deferred`; 404 for an
   * unknown trainee or another provider's; 422 StateTransitionError when its state does not allow
   * it; 422 with every failed rule of the body, or naming `data` when it is missing.
   */
  @Post('defer')
  @Operation('deferTrainee', 'Defer a trainee', 'From submitted_for_trn or trn_received.')
  @IdParam('trainee_id')
  @Writes('DeferralRequest', { notFound: true })
  @Answers(200, 'The trainee, deferred.', 'TraineeResponse')
  @HttpCode(200)
  async defer(
    @CurrentCaller() caller: Caller,
    @Contract() contract: VersionContract,
    @Param('trainee_id') id: string,
    @WireBody('deferral') data: RequestData<DeferralFields>,
  ): Promise<{ data: unknown }> {
    const trainee = await this.commands.execute<DeferTraineeCommand, Trainee>(new DeferTraineeCommand(caller, contract.rules, id, data));
    return { data: contract.output.serializeTrainee(trainee, { nested: true }) };
  }
}
