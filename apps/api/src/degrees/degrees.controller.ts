import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { Answers, ApiVersionParam, Authenticated, IdParam, NotFoundAnswer, Operation, Writes } from '../openapi/operation.decorators';
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
@Controller('api/:api_version/trainees/:trainee_id/degrees')
@UseGuards(ApiGuard)
@ApiTags('Degrees')
@ApiVersionParam()
@IdParam('trainee_id')
@Authenticated()
export class DegreesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** GET …/degrees: 200 `{data: [Degree]}`, `[]` when none (docs/DESIGN.md ruling 9). */
  @Get()
  @Operation('listDegrees', "A trainee's degrees")
  @Answers(200, 'The degrees, in creation order.', 'DegreeListResponse')
  @NotFoundAnswer()
  async list(@CurrentCaller() caller: Caller, @Contract() contract: VersionContract, @Param('trainee_id') traineeId: string): Promise<{ data: unknown[] }> {
    const degrees = await this.queries.execute<ListDegreesQuery, Degree[]>(new ListDegreesQuery(caller, traineeId));
    return { data: degrees.map((d) => contract.output.serializeDegree(d)) };
  }

  /** GET …/degrees/{degree_id}: 200 `{data: Degree}`. */
  @Get(':degree_id')
  @Operation('getDegree', 'One degree')
  @IdParam('degree_id')
  @Answers(200, 'The degree.', 'DegreeResponse')
  @NotFoundAnswer('Trainee(s) or Degree(s) not found.')
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
  @Operation('createDegree', 'Add a degree')
  @Writes('DegreeRequest', { notFound: true, conflict: 'DuplicateDegree' })
  @Answers(201, 'An array holding the degree.', 'DegreeCreatedResponse')
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
  @Operation('replaceDegree', 'Change a degree (partial: only the fields sent change)')
  @IdParam('degree_id')
  @Writes('DegreeRequest', { notFound: true, conflict: 'DuplicateDegree' })
  @Answers(200, 'The degree after the change.', 'DegreeResponse')
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
  @Operation('updateDegree', 'Change a degree', 'As PUT.')
  @IdParam('degree_id')
  @Writes('DegreeRequest', { notFound: true, conflict: 'DuplicateDegree' })
  @Answers(200, 'The degree after the change.', 'DegreeResponse')
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
  @Operation('deleteDegree', 'Remove a degree')
  @IdParam('degree_id')
  @Answers(200, 'The trainee after the removal.', 'TraineeResponse')
  @NotFoundAnswer('Trainee(s) or Degree(s) not found.')
  @Answers(409, 'A concurrent change of the trainee; retry.', 'Conflict')
  @Answers(422, 'StateTransitionError: the trainee\'s state refuses the change.', 'UnprocessableEntity')
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
