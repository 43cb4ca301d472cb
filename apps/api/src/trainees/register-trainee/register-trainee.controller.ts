import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Caller } from '@app/application';
import type { Trainee } from '@app/domain';
import { ApiGuard } from '../../shared/api.guard';
import { CurrentCaller } from '../../shared/request-context';
import { serializeTrainee } from '../trainee.serializer';
import { RegisterTraineeCommand } from './register-trainee.handler';

@Controller('api/:version/trainees')
@UseGuards(ApiGuard)
export class RegisterTraineeController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * POST /api/{version}/trainees with `{data: Trainee input}` (nested `placements_attributes`,
   * `degrees_attributes`). 201 `{data: Trainee}` in state submitted_for_trn; 409 with the existing
   * trainees in `data` when the duplicate rule matches; 422 listing every failed rule.
   */
  @Post()
  @HttpCode(201)
  async register(@CurrentCaller() caller: Caller, @Body() body: unknown): Promise<{ data: unknown }> {
    const trainee = await this.commands.execute<RegisterTraineeCommand, Trainee>(
      new RegisterTraineeCommand(caller, dataOf(body)),
    );
    return { data: serializeTrainee(trainee, caller.apiVersion, { nested: true }) };
  }
}

/** The `data` member of a request body, or undefined when the body is not an object. */
export function dataOf(body: unknown): unknown {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as { data?: unknown }).data : undefined;
}
