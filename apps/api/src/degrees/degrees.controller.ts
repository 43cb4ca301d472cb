import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Caller } from '@app/application';
import type { VersionContract } from '@app/contract';
import type { Degree, DegreeFields, RequestData, Trainee } from '@app/domain';
import { ApiGuard } from '../shared/api.guard';
import { Contract, CurrentCaller } from '../shared/request-context';
import { WireBody } from '../shared/wire-body';
import { AddDegreeCommand, GetDegreeQuery, ListDegreesQuery, RemoveDegreeCommand, UpdateDegreeCommand } from './degree.handlers';

/**
 * A trainee's previous degrees (docs/spec/trainee-records-api.md "Degree object", endpoints under /trainees/{trainee_id}/degrees;
 * docs/reference/API-FACTS.md §11). 404 `Trainee(s) not found` / `Degree(s) not found`; 409 `This is a duplicate
 * degree` with the existing degrees in `data` (docs/spec/trainee-records-api.md "Duplicate rules"); 422 with every failed rule
 * or naming `data` when it is missing; where the version refuses writes to a trainee in
 * recommended_for_award, withdrawn or awarded, 422 StateTransitionError.
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
  async list(@CurrentCaller() caller: Caller, @Contract() contract: VersionContract, @Param('trainee_id') traineeId: string): Promise<{ data: unknown[] }> {
    const degrees = await this.queries.execute<ListDegreesQuery, Degree[]>(new ListDegreesQuery(caller, traineeId));
    return { data: degrees.map((d) => contract.output.serializeDegree(d)) };
  }

  /** GET …/degrees/{degree_id}: 200 `{data: Degree}`. */
  @Get(':degree_id')
  async get(
    @CurrentCaller() caller: Caller,
    @Contract() contract: VersionContract,
    @Param('trainee_id') traineeId: string,
    @Param('degree_id') degreeId: string,
  ): Promise<{ data: unknown }> {
    const degree = await this.queries.execute<GetDegreeQuery, Degree>(new GetDegreeQuery(caller, traineeId, degreeId));
    return { data: contract.output.serializeDegree(degree) };
  }

  /** POST …/degrees with `{data: Degree input}`: 201 `{data: [Degree]}` (docs/DESIGN.md ruling 2). */
  @Post()
  @HttpCode(201)
  async create(
    @CurrentCaller() caller: Caller,
    @Contract() contract: VersionContract,
    @Param('trainee_id') traineeId: string,
    @WireBody('degree') data: RequestData<DegreeFields>,
  ): Promise<{ data: unknown[] }> {
    const degree = await this.commands.execute<AddDegreeCommand, Degree>(new AddDegreeCommand(caller, contract.rules, traineeId, data));
    return { data: [contract.output.serializeDegree(degree)] };
  }

  /** PUT …/degrees/{degree_id}: partial, only the keys sent change (docs/reference/API-FACTS.md §11.7); 200 `{data: Degree}`. */
  @Put(':degree_id')
  put(
    @CurrentCaller() caller: Caller,
    @Contract() contract: VersionContract,
    @Param('trainee_id') t: string,
    @Param('degree_id') d: string,
    @WireBody('degree') data: RequestData<DegreeFields>,
  ): Promise<{ data: unknown }> {
    return this.update(caller, contract, t, d, data);
  }

  /** PATCH …/degrees/{degree_id}: as PUT. */
  @Patch(':degree_id')
  patch(
    @CurrentCaller() caller: Caller,
    @Contract() contract: VersionContract,
    @Param('trainee_id') t: string,
    @Param('degree_id') d: string,
    @WireBody('degree') data: RequestData<DegreeFields>,
  ): Promise<{ data: unknown }> {
    return this.update(caller, contract, t, d, data);
  }

  /** DELETE …/degrees/{degree_id}: 200 `{data: Trainee}`, the parent after the removal (docs/reference/API-FACTS.md §4). */
  @Delete(':degree_id')
  @HttpCode(200)
  async remove(
    @CurrentCaller() caller: Caller,
    @Contract() contract: VersionContract,
    @Param('trainee_id') traineeId: string,
    @Param('degree_id') degreeId: string,
  ): Promise<{ data: unknown }> {
    const trainee = await this.commands.execute<RemoveDegreeCommand, Trainee>(new RemoveDegreeCommand(caller, contract.rules, traineeId, degreeId));
    return { data: contract.output.serializeTrainee(trainee, { nested: true }) };
  }

  private async update(caller: Caller, contract: VersionContract, traineeId: string, degreeId: string, data: RequestData<DegreeFields>): Promise<{ data: unknown }> {
    const degree = await this.commands.execute<UpdateDegreeCommand, Degree>(new UpdateDegreeCommand(caller, contract.rules, traineeId, degreeId, data));
    return { data: contract.output.serializeDegree(degree) };
  }
}
