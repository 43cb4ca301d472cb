import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Caller } from '@app/application';
import type { Trainee } from '@app/domain';
import { ApiGuard, RouteNotFound } from '../../shared/api.guard';
import { CurrentCaller } from '../../shared/request-context';
import { dataOf } from '../register-trainee/register-trainee.controller';
import { serializeTrainee } from '../trainee.serializer';
import { LifecycleCommand, type LifecycleAction } from './lifecycle.handlers';

/**
 * The actions that move a trainee through its training (docs/spec/trainee-records-api.md "States and transitions"; docs/reference/API-FACTS.md
 * §12). Each answers the trainee after the action; 404 for an unknown trainee or another
 * provider's; 422 StateTransitionError when the trainee's state does not allow the action; 422 with
 * every failed rule of the body, or naming `data` when it is missing.
 */
@Controller('api/:version/trainees/:trainee_id')
@UseGuards(ApiGuard)
export class LifecycleController {
  constructor(private readonly commands: CommandBus) {}

  /** POST …/defer `{data: {defer_date, defer_reason}}`: 200, state `deferred` (docs/reference/API-FACTS.md §12.3). */
  @Post('defer')
  @HttpCode(200)
  defer(@CurrentCaller() caller: Caller, @Param('trainee_id') id: string, @Body() body: unknown): Promise<{ data: unknown }> {
    return this.run('defer', caller, id, body);
  }

  /**
   * POST …/withdraw: `withdraw_date` (v2025.0) or `withdrawal_date` (v2026.1), `trigger`,
   * `future_interest`, `reasons`, conditional `another_reason` and (v2026.1)
   * `safeguarding_concern_reasons`; 200, state `withdrawn` (docs/reference/API-FACTS.md §12.4; docs/DESIGN.md ruling 7).
   */
  @Post('withdraw')
  @HttpCode(200)
  withdraw(@CurrentCaller() caller: Caller, @Param('trainee_id') id: string, @Body() body: unknown): Promise<{ data: unknown }> {
    return this.run('withdraw', caller, id, body);
  }

  /**
   * POST …/recommend-for-qts `{data: {qts_standards_met_date}}`: 202, state
   * `recommended_for_award` with outcome_date and recommended_for_award_at (docs/reference/API-FACTS.md §12.5;
   * docs/DESIGN.md ruling 8).
   */
  @Post('recommend-for-qts')
  @HttpCode(202)
  recommend(@CurrentCaller() caller: Caller, @Param('trainee_id') id: string, @Body() body: unknown): Promise<{ data: unknown }> {
    return this.run('recommend', caller, id, body);
  }

  /** POST …/update-qts-or-eyts-status (v2026.1 only; as recommend-for-qts). Other versions: 404 Not found. */
  @Post('update-qts-or-eyts-status')
  @HttpCode(202)
  updateQtsOrEytsStatus(@CurrentCaller() caller: Caller, @Param('trainee_id') id: string, @Body() body: unknown): Promise<{ data: unknown }> {
    if (caller.apiVersion !== 'v2026.1') throw new RouteNotFound();
    return this.run('recommend', caller, id, body);
  }

  private async run(action: LifecycleAction, caller: Caller, id: string, body: unknown): Promise<{ data: unknown }> {
    const trainee = await this.commands.execute<LifecycleCommand, Trainee>(new LifecycleCommand(action, caller, id, dataOf(body)));
    return { data: serializeTrainee(trainee, caller.apiVersion, { nested: true }) };
  }
}
