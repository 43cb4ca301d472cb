import { Body, Controller, HttpCode, Param, Patch, Put, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Caller } from '@app/application';
import type { Trainee } from '@app/domain';
import { ApiGuard } from '../../shared/api.guard';
import { CurrentCaller } from '../../shared/request-context';
import { dataOf } from '../register-trainee/register-trainee.controller';
import { serializeTrainee } from '../trainee.serializer';
import { UpdateTraineeCommand } from './update-trainee.handler';

@Controller('api/:version/trainees')
@UseGuards(ApiGuard)
export class UpdateTraineeController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * PUT /api/{version}/trainees/{trainee_id}: merge semantics, identical to PATCH (docs/reference/API-FACTS.md §7.1).
   * 200 `{data: Trainee}`; 404 unknown trainee or another provider's; 422 on any failed rule
   * (and StateTransitionError in v2026.1 for recommended_for_award, withdrawn, awarded).
   */
  @Put(':trainee_id')
  @HttpCode(200)
  put(@CurrentCaller() caller: Caller, @Param('trainee_id') id: string, @Body() body: unknown): Promise<{ data: unknown }> {
    return this.update(caller, id, body);
  }

  /** PATCH /api/{version}/trainees/{trainee_id}: as PUT. */
  @Patch(':trainee_id')
  @HttpCode(200)
  patch(@CurrentCaller() caller: Caller, @Param('trainee_id') id: string, @Body() body: unknown): Promise<{ data: unknown }> {
    return this.update(caller, id, body);
  }

  private async update(caller: Caller, id: string, body: unknown): Promise<{ data: unknown }> {
    const trainee = await this.commands.execute<UpdateTraineeCommand, Trainee>(new UpdateTraineeCommand(caller, id, dataOf(body)));
    return { data: serializeTrainee(trainee, caller.apiVersion, { nested: true }) };
  }
}
