import { Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { RequestData } from '@app/trainees/decider';
import type { Degree, DegreeFields, Trainee } from '@app/trainees/record';
import { ApiController } from '../../openapi/api-controller.decorator';
import { WireBody } from '../../bodies/wire-body';
import { IdParam } from '../../openapi/operation.decorators';
import { ItemParams, itemEndpointDocs, type ItemRequest } from '../trainee-items';
import { AddDegreeCommand, RemoveDegreeCommand, UpdateDegreeCommand } from './degree.commands';
import { GetDegreeQuery, ListDegreesQuery } from './degree.queries';

const DOCS = itemEndpointDocs({
  name: 'degree',
  path: 'degrees',
  idParam: 'degree_id',
  operations: {
    list: 'listDegrees',
    get: 'getDegree',
    create: 'createDegree',
    replace: 'replaceDegree',
    update: 'updateDegree',
    remove: 'deleteDegree',
  },
  titles: {
    list: "A trainee's degrees",
    get: 'One degree',
    create: 'Add a degree',
    replace: 'Change a degree (partial: only the fields sent change)',
    update: 'Change a degree',
    remove: 'Remove a degree',
  },
  schemas: { request: 'DegreeRequest', list: 'DegreeListResponse', item: 'DegreeResponse', created: 'DegreeCreatedResponse' },
  createdDescription: 'An array holding the degree.',
  conflict: 'DuplicateDegree',
});

/**
 * A trainee's previous degrees under /api/{version}/trainees/{trainee_id}/degrees
 * (docs/spec/trainee-records-api.md "Degree object"; docs/reference/API-FACTS.md §11): 409 `This is
 * a duplicate degree` with the existing degrees (docs/spec/trainee-records-api.md "Duplicate
 * rules"); an update is partial, only the keys sent change (§11.7). 404 `Trainee(s) not found` for
 * an unknown trainee or another provider's, `Degree(s) not found` for an unknown degree; 422 with
 * every failed rule, or naming `data` when it is missing; where the version refuses writes to a
 * trainee in recommended_for_award, withdrawn or awarded, 422 StateTransitionError.
 */
@ApiController('trainees/:trainee_id/degrees', 'Degrees')
@IdParam('trainee_id')
export class DegreesController {
  constructor(
    readonly commands: CommandBus,
    readonly queries: QueryBus,
  ) {}

  /** GET …/degrees: 200 `{data: [Degree]}` in creation order, `[]` when none (docs/DESIGN.md ruling 9). */
  @Get()
  @DOCS.list
  async list(@ItemParams() r: ItemRequest): Promise<{ data: unknown[] }> {
    const degrees = await this.queries.execute<ListDegreesQuery, Degree[]>(new ListDegreesQuery(r.caller, r.traineeId));
    return { data: degrees.map((d) => r.contract.output.serializeDegree(d)) };
  }

  /** GET …/degrees/{degree_id}: 200 `{data: Degree}`. */
  @Get(':degree_id')
  @DOCS.get
  async get(@ItemParams('degree_id') r: ItemRequest): Promise<{ data: unknown }> {
    const degree = await this.queries.execute<GetDegreeQuery, Degree>(new GetDegreeQuery(r.caller, r.traineeId, r.itemId));
    return { data: r.contract.output.serializeDegree(degree) };
  }

  /** POST …/degrees: 201 `{data: [Degree]}`, an array holding the degree (docs/DESIGN.md ruling 2). */
  @Post()
  @DOCS.create
  @HttpCode(201)
  async create(@ItemParams() r: ItemRequest, @WireBody('degree') data: RequestData<DegreeFields>): Promise<{ data: unknown }> {
    const degree = await this.commands.execute<AddDegreeCommand, Degree>(
      new AddDegreeCommand(r.caller, r.contract.rules, r.traineeId, data),
    );
    return { data: [r.contract.output.serializeDegree(degree)] };
  }

  /** PUT …/degrees/{degree_id}: partial, only the fields sent change (§11.7); 200 `{data: Degree}`. */
  @Put(':degree_id')
  @DOCS.replace
  put(@ItemParams('degree_id') r: ItemRequest, @WireBody('degree') data: RequestData<DegreeFields>): Promise<{ data: unknown }> {
    return this.update(r, data);
  }

  /** PATCH …/degrees/{degree_id}: as PUT. */
  @Patch(':degree_id')
  @DOCS.update
  patch(@ItemParams('degree_id') r: ItemRequest, @WireBody('degree') data: RequestData<DegreeFields>): Promise<{ data: unknown }> {
    return this.update(r, data);
  }

  /** DELETE …/degrees/{degree_id}: 200 `{data: Trainee}`, the trainee after the removal (docs/reference/API-FACTS.md §4). */
  @Delete(':degree_id')
  @DOCS.remove
  @HttpCode(200)
  async remove(@ItemParams('degree_id') r: ItemRequest): Promise<{ data: unknown }> {
    const command = new RemoveDegreeCommand(r.caller, r.contract.rules, r.traineeId, r.itemId);
    const trainee = await this.commands.execute<RemoveDegreeCommand, Trainee>(command);
    return { data: r.contract.output.serializeTrainee(trainee, { nested: true }) };
  }

  private async update(r: ItemRequest, data: RequestData<DegreeFields>): Promise<{ data: unknown }> {
    const command = new UpdateDegreeCommand(r.caller, r.contract.rules, r.traineeId, r.itemId, data);
    const degree = await this.commands.execute<UpdateDegreeCommand, Degree>(command);
    return { data: r.contract.output.serializeDegree(degree) };
  }
}
