import { HttpCode, Post, UseInterceptors } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Answers, Operation, Writes } from '../../openapi/operation.decorators';
import type { Caller } from '@app/trainees/write';
import type { VersionContract } from '@app/trainees/contract';
import type { RequestData } from '@app/trainees/decider';
import type { Trainee, TraineeFields } from '@app/trainees/record';
import { EnhancedErrorsInterceptor } from '../../errors/enhanced-errors.interceptor';
import { ApiController } from '../../openapi/api-controller.decorator';
import { Contract, CurrentCaller } from '../../auth/request-context';
import { WireBody } from '../../bodies/wire-body';
import { RegisterTraineeCommand } from './register-trainee.handler';

@ApiController('trainees', 'Trainees')
export class RegisterTraineeController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * POST /api/{version}/trainees with `{data: Trainee input}` (nested `placements_attributes`,
   * `degrees_attributes`). 201 `{data: Trainee}` in state submitted_for_trn; 409 with the existing
   * trainees in `data` when the duplicate rule matches; 422 listing every failed rule (with
   * `Enhanced-Errors: true`, keyed by field: docs/reference/API-FACTS.md §5.4).
   */
  @Post()
  @Operation(
    'createTrainee',
    'Register a trainee',
    'With nested degrees and placements; the trainee is submitted for a TRN (state `submitted_for_trn`, `trn` null until the registry issues one).',
  )
  @Writes('TraineeCreateRequest', { notFound: false, conflict: 'DuplicateTrainee', enhancedErrors: true })
  @Answers(201, 'The trainee, with its placements and degrees.', 'TraineeResponse')
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
