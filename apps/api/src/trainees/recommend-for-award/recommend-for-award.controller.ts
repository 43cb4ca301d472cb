import { HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Caller } from '@app/trainees/write';
import type { VersionContract } from '@app/trainees/contract';
import type { RecommendationFields, Trainee } from '@app/trainees/record';
import type { RequestData } from '@app/trainees/decider';
import { RouteNotFound } from '../../auth/api.guard';
import { ApiController } from '../../openapi/api-controller.decorator';
import { Contract, CurrentCaller } from '../../auth/request-context';
import { WireBody } from '../../bodies/wire-body';
import { Answers, ForVersionsWith, IdParam, Operation, Writes } from '../../openapi/operation.decorators';
import { RecommendForAwardCommand } from './recommend-for-award.handler';

/**
 * POST /api/{version}/trainees/{trainee_id}/recommend-for-qts and, where the version routes it,
 * …/update-qts-or-eyts-status (docs/reference/API-FACTS.md §1.9, §12.5; docs/DESIGN.md ruling 8).
 * Each answers 202 `{data: Trainee}` in state `recommended_for_award` with outcome_date and
 * recommended_for_award_at; 404 unknown or another provider's trainee; 422 StateTransitionError
 * or every failed rule of the body.
 */
@ApiController('trainees/:trainee_id', 'Lifecycle')
export class RecommendForAwardController {
  constructor(private readonly commands: CommandBus) {}

  /** `{data: {qts_standards_met_date}}`. */
  @Post('recommend-for-qts')
  @Operation(
    'recommendForQts',
    'Recommend a trainee for QTS or EYTS',
    'From submitted_for_trn or trn_received (docs/DESIGN.md ruling 8); the registry then awards.',
  )
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
    return this.run(caller, contract, id, data);
  }

  /** As recommend-for-qts where the version routes it (§1.9); elsewhere 404 Not found. */
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
    return this.run(caller, contract, id, data);
  }

  private async run(
    caller: Caller,
    contract: VersionContract,
    id: string,
    data: RequestData<RecommendationFields>,
  ): Promise<{ data: unknown }> {
    const trainee = await this.commands.execute<RecommendForAwardCommand, Trainee>(
      new RecommendForAwardCommand(caller, contract.rules, id, data),
    );
    return { data: contract.output.serializeTrainee(trainee, { nested: true }) };
  }
}
