import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { Caller } from '@app/application';
import type { Trainee } from '@app/domain';
import { ApiGuard } from '../../shared/api.guard';
import { CurrentCaller } from '../../shared/request-context';
import { serializeTrainee } from '../trainee.serializer';
import { GetTraineeQuery } from './get-trainee.query';

@Controller('api/:version/trainees')
@UseGuards(ApiGuard)
export class GetTraineeController {
  constructor(private readonly queries: QueryBus) {}

  /**
   * GET /api/{version}/trainees/{trainee_id}: 200 `{data: Trainee}` with placements and degrees
   * (docs/DESIGN.md ruling 1); 404 `Trainee(s) not found`.
   */
  @Get(':trainee_id')
  async get(@CurrentCaller() caller: Caller, @Param('trainee_id') id: string): Promise<{ data: unknown }> {
    const trainee = await this.queries.execute<GetTraineeQuery, Trainee>(new GetTraineeQuery(caller, id));
    return { data: serializeTrainee(trainee, caller.apiVersion, { nested: true }) };
  }
}
