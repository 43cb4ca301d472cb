import { HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Caller } from '@app/trainees/write';
import type { VersionContract } from '@app/trainees/contract';
import type { RequestData } from '@app/trainees/decider';
import type { Trainee, WithdrawalFields } from '@app/trainees/record';
import { ApiController } from '../../openapi/api-controller.decorator';
import { Contract, CurrentCaller } from '../../auth/request-context';
import { WireBody } from '../../bodies/wire-body';
import { Answers, IdParam, Operation, Writes } from '../../openapi/operation.decorators';
import { WithdrawTraineeCommand } from './withdraw-trainee.handler';

/**
 * POST /api/{version}/trainees/{trainee_id}/withdraw (docs/spec/trainee-records-api.md "States and
 * transitions"; docs/reference/API-FACTS.md §12.4; docs/DESIGN.md ruling 7).
 */
@ApiController('trainees/:trainee_id', 'Lifecycle')
export class WithdrawTraineeController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * The version's withdrawal date field, `trigger`, `future_interest`, `reasons`, conditional
   * `another_reason` and (where the version has it) `safeguarding_concern_reasons`: 200 `{data:
   * Trainee}` in state `withdrawn`; 404 unknown or another provider's trainee; 422
   * StateTransitionError (state, or ITT not started); 422 with every failed rule of the body.
   */
  @Post('withdraw')
  @Operation('withdrawTrainee', 'Withdraw a trainee', 'From submitted_for_trn, trn_received or deferred, once ITT has started.')
  @IdParam('trainee_id')
  @Writes('WithdrawalRequest', { notFound: true })
  @Answers(200, 'The trainee, withdrawn.', 'TraineeResponse')
  @HttpCode(200)
  async withdraw(
    @CurrentCaller() caller: Caller,
    @Contract() contract: VersionContract,
    @Param('trainee_id') id: string,
    @WireBody('withdrawal') data: RequestData<WithdrawalFields>,
  ): Promise<{ data: unknown }> {
    const trainee = await this.commands.execute<WithdrawTraineeCommand, Trainee>(
      new WithdrawTraineeCommand(caller, contract.rules, id, data),
    );
    return { data: contract.output.serializeTrainee(trainee, { nested: true }) };
  }
}
