import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Caller } from '@app/application';
import type { Degree, Trainee } from '@app/domain';
import { ApiGuard } from '../shared/api.guard';
import { CurrentCaller } from '../shared/request-context';
import { dataOf } from '../trainees/register-trainee/register-trainee.controller';
import { serializeDegree, serializeTrainee } from '../trainees/trainee.serializer';
import { AddDegreeCommand, GetDegreeQuery, ListDegreesQuery, RemoveDegreeCommand, UpdateDegreeCommand } from './degree.handlers';

/**
 * A trainee's previous degrees (docs/spec/trainee-records-api.md "Degree object", endpoints under /trainees/{trainee_id}/degrees;
 * docs/reference/API-FACTS.md §11). 404 `Trainee(s) not found` / `Degree(s) not found`; 409 `This is a duplicate
 * degree` with the existing degrees in `data` (docs/spec/trainee-records-api.md "Duplicate rules"); 422 with every failed rule
 * or naming `data` when it is missing; v2026.1 refuses writes to a trainee in
 * recommended_for_award, withdrawn or awarded (StateTransitionError).
 */
@Controller('api/:version/trainees/:trainee_id/degrees')
@UseGuards(ApiGuard)
export class DegreesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** GET …/degrees: 200 `{data: [Degree]}`, `[]` when none (docs/DESIGN.md ruling 9). */
  @Get()
  async list(@CurrentCaller() caller: Caller, @Param('trainee_id') traineeId: string): Promise<{ data: unknown[] }> {
    const degrees = await this.queries.execute<ListDegreesQuery, Degree[]>(new ListDegreesQuery(caller, traineeId));
    return { data: degrees.map(serializeDegree) };
  }

  /** GET …/degrees/{degree_id}: 200 `{data: Degree}`. */
  @Get(':degree_id')
  async get(@CurrentCaller() caller: Caller, @Param('trainee_id') traineeId: string, @Param('degree_id') degreeId: string): Promise<{ data: unknown }> {
    const degree = await this.queries.execute<GetDegreeQuery, Degree>(new GetDegreeQuery(caller, traineeId, degreeId));
    return { data: serializeDegree(degree) };
  }

  /** POST …/degrees with `{data: Degree input}`: 201 `{data: [Degree]}` (docs/DESIGN.md ruling 2). */
  @Post()
  @HttpCode(201)
  async create(@CurrentCaller() caller: Caller, @Param('trainee_id') traineeId: string, @Body() body: unknown): Promise<{ data: unknown[] }> {
    const degree = await this.commands.execute<AddDegreeCommand, Degree>(new AddDegreeCommand(caller, traineeId, dataOf(body)));
    return { data: [serializeDegree(degree)] };
  }

  /** PUT …/degrees/{degree_id}: partial, only the keys sent change (docs/reference/API-FACTS.md §11.7); 200 `{data: Degree}`. */
  @Put(':degree_id')
  put(@CurrentCaller() caller: Caller, @Param('trainee_id') t: string, @Param('degree_id') d: string, @Body() body: unknown): Promise<{ data: unknown }> {
    return this.update(caller, t, d, body);
  }

  /** PATCH …/degrees/{degree_id}: as PUT. */
  @Patch(':degree_id')
  patch(@CurrentCaller() caller: Caller, @Param('trainee_id') t: string, @Param('degree_id') d: string, @Body() body: unknown): Promise<{ data: unknown }> {
    return this.update(caller, t, d, body);
  }

  /** DELETE …/degrees/{degree_id}: 200 `{data: Trainee}`, the parent after the removal (docs/reference/API-FACTS.md §4). */
  @Delete(':degree_id')
  @HttpCode(200)
  async remove(@CurrentCaller() caller: Caller, @Param('trainee_id') traineeId: string, @Param('degree_id') degreeId: string): Promise<{ data: unknown }> {
    const trainee = await this.commands.execute<RemoveDegreeCommand, Trainee>(new RemoveDegreeCommand(caller, traineeId, degreeId));
    return { data: serializeTrainee(trainee, caller.apiVersion, { nested: true }) };
  }

  private async update(caller: Caller, traineeId: string, degreeId: string, body: unknown): Promise<{ data: unknown }> {
    const degree = await this.commands.execute<UpdateDegreeCommand, Degree>(new UpdateDegreeCommand(caller, traineeId, degreeId, dataOf(body)));
    return { data: serializeDegree(degree) };
  }
}
