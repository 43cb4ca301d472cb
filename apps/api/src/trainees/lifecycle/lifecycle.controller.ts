import { Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { Answers, ApiVersionParam, Authenticated, ForVersionsWith, IdParam, Operation, Writes } from '../../openapi/operation.decorators';
import type { Caller } from '@app/application';
import type { VersionContract } from '@app/contract';
import type { DeferralFields, RecommendationFields, RequestData, Trainee, WithdrawalFields } from '@app/domain';
import { ApiGuard, RouteNotFound } from '../../shared/api.guard';
import { Contract, CurrentCaller } from '../../shared/request-context';
import { WireBody } from '../../shared/wire-body';
import { LifecycleCommand, type LifecycleAction } from './lifecycle.handlers';

/**
 * The actions that move a trainee through its training (docs/spec/trainee-records-api.md "States
 * and transitions"; docs/reference/API-FACTS.md §12). Each answers the trainee after the action; 404
 * for an unknown trainee or another provider's; 422 StateTransitionError when the trainee's state
 * does not allow the action; 422 with every failed rule of the body, or naming `data` when it is missing.
 */
@Controller('api/:api_version/trainees/:trainee_id')
@UseGuards(ApiGuard)
@ApiTags('Lifecycle')
@ApiVersionParam()
@Authenticated()
export class LifecycleController {
  constructor(private readonly commands: CommandBus) {}

  /** POST …/defer `{data: {defer_date, defer_reason}}`: 200, state `deferred` (docs/reference/API-FACTS.md §12.3). */
  @Post('defer')
  @Operation('deferTrainee', 'Defer a trainee', 'From submitted_for_trn or trn_received.')
  @IdParam('trainee_id')
  @Writes('DeferralRequest', { notFound: true })
  @Answers(200, 'The trainee, deferred.', 'TraineeResponse')
  @HttpCode(200)
  defer(
    @CurrentCaller() caller: Caller,
    @Contract() contract: VersionContract,
    @Param('trainee_id') id: string,
    @WireBody('deferral') data: RequestData<DeferralFields>,
  ): Promise<{ data: unknown }> {
    return this.run(caller, contract, id, { action: 'defer', data });
  }

  /**
   * POST …/withdraw: the version's withdrawal date field, `trigger`, `future_interest`, `reasons`,
   * conditional `another_reason` and (where the version has it) `safeguarding_concern_reasons`;
   * 200, state `withdrawn` (docs/reference/API-FACTS.md §12.4; docs/DESIGN.md ruling 7).
   */
  @Post('withdraw')
  @Operation('withdrawTrainee', 'Withdraw a trainee', 'From submitted_for_trn, trn_received or deferred, once ITT has started.')
  @IdParam('trainee_id')
  @Writes('WithdrawalRequest', { notFound: true })
  @Answers(200, 'The trainee, withdrawn.', 'TraineeResponse')
  @HttpCode(200)
  withdraw(
    @CurrentCaller() caller: Caller,
    @Contract() contract: VersionContract,
    @Param('trainee_id') id: string,
    @WireBody('withdrawal') data: RequestData<WithdrawalFields>,
  ): Promise<{ data: unknown }> {
    return this.run(caller, contract, id, { action: 'withdraw', data });
  }

  /**
   * POST …/recommend-for-qts `{data: {qts_standards_met_date}}`: 202, state
   * `recommended_for_award` with outcome_date and recommended_for_award_at (docs/reference/API-FACTS.md §12.5;
   * docs/DESIGN.md ruling 8).
   */
  @Post('recommend-for-qts')
  @Operation('recommendForQts', 'Recommend a trainee for QTS or EYTS', 'From submitted_for_trn or trn_received (docs/DESIGN.md ruling 8); the registry then awards.')
  @IdParam('trainee_id')
  @Writes('RecommendationRequest', { notFound: true })
  @Answers(202, 'The trainee, recommended for award.', 'TraineeResponse')
  @HttpCode(202)
  recommend(
    @CurrentCaller() caller: Caller,
    @Contract() contract: VersionContract,
    @Param('trainee_id') id: string,
    @WireBody('recommendation') data: RequestData<RecommendationFields>,
  ): Promise<{ data: unknown }> {
    return this.run(caller, contract, id, { action: 'recommend', data });
  }

  /** POST …/update-qts-or-eyts-status: as recommend-for-qts where the version routes it (§1.9); elsewhere 404 Not found. */
  @Post('update-qts-or-eyts-status')
  @Operation('updateQtsOrEytsStatus', 'Recommend a trainee for QTS or EYTS (as recommend-for-qts)')
  @ForVersionsWith('updateQtsOrEytsStatus')
  @IdParam('trainee_id')
  @Writes('RecommendationRequest', { notFound: true })
  @Answers(202, 'The trainee, recommended for award.', 'TraineeResponse')
  @HttpCode(202)
  updateQtsOrEytsStatus(
    @CurrentCaller() caller: Caller,
    @Contract() contract: VersionContract,
    @Param('trainee_id') id: string,
    @WireBody('recommendation') data: RequestData<RecommendationFields>,
  ): Promise<{ data: unknown }> {
    if (!contract.features.updateQtsOrEytsStatus) throw new RouteNotFound();
    return this.run(caller, contract, id, { action: 'recommend', data });
  }

  private async run(caller: Caller, contract: VersionContract, id: string, request: LifecycleAction): Promise<{ data: unknown }> {
    const trainee = await this.commands.execute<LifecycleCommand, Trainee>(new LifecycleCommand(caller, contract.rules, id, request));
    return { data: contract.output.serializeTrainee(trainee, { nested: true }) };
  }
}
