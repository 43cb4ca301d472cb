import { Controller, HttpCode, Post, UseGuards, UseInterceptors } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Caller } from '@app/application';
import type { VersionContract } from '@app/contract';
import type { RequestData, Trainee, TraineeFields } from '@app/domain';
import { ApiGuard } from '../../shared/api.guard';
import { EnhancedErrorsInterceptor } from '../../shared/enhanced-errors.interceptor';
import { Contract, CurrentCaller } from '../../shared/request-context';
import { WireBody } from '../../shared/wire-body';
import { RegisterTraineeCommand } from './register-trainee.handler';

@Controller('api/:version/trainees')
@UseGuards(ApiGuard)
export class RegisterTraineeController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * POST /api/{version}/trainees with `{data: Trainee input}` (nested `placements_attributes`,
   * `degrees_attributes`). 201 `{data: Trainee}` in state submitted_for_trn; 409 with the existing
   * trainees in `data` when the duplicate rule matches; 422 listing every failed rule (with
   * `Enhanced-Errors: true`, keyed by field: docs/reference/API-FACTS.md §5.4).
   */
  @Post()
  @HttpCode(201)
  @UseInterceptors(EnhancedErrorsInterceptor)
  async register(
    @CurrentCaller() caller: Caller,
    @Contract() contract: VersionContract,
    @WireBody('traineeCreate') data: RequestData<TraineeFields>,
  ): Promise<{ data: unknown }> {
    const trainee = await this.commands.execute<RegisterTraineeCommand, Trainee>(new RegisterTraineeCommand(caller, contract.rules, data));
    return { data: contract.output.serializeTrainee(trainee, { nested: true }) };
  }
}
