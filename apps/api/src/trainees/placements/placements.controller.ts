import { Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { RequestData } from '@app/trainees/decider';
import type { Placement, PlacementFields, Trainee } from '@app/trainees/record';
import { ApiController } from '../../openapi/api-controller.decorator';
import { WireBody } from '../../bodies/wire-body';
import { IdParam } from '../../openapi/operation.decorators';
import { ItemParams, itemEndpointDocs, type ItemRequest } from '../trainee-items';
import { AddPlacementCommand, RemovePlacementCommand, UpdatePlacementCommand } from './placement.commands';
import { GetPlacementQuery, ListPlacementsQuery } from './placement.queries';

const DOCS = itemEndpointDocs({
  name: 'placement',
  path: 'placements',
  idParam: 'placement_id',
  operations: {
    list: 'listPlacements',
    get: 'getPlacement',
    create: 'createPlacement',
    replace: 'replacePlacement',
    update: 'updatePlacement',
    remove: 'deletePlacement',
  },
  titles: {
    list: "A trainee's placements",
    get: 'One placement',
    create: 'Add a placement',
    replace: 'Change a placement (the fields sent replace the stored ones)',
    update: 'Change a placement',
    remove: 'Remove a placement',
  },
  createDescription: 'A URN of the schools directory links the school (its name, postcode and address).',
  schemas: { request: 'PlacementRequest', list: 'PlacementListResponse', item: 'PlacementResponse', created: 'PlacementCreatedResponse' },
  createdDescription: 'The placement.',
});

/**
 * A trainee's school placements under /api/{version}/trainees/{trainee_id}/placements
 * (docs/spec/trainee-records-api.md "Placement object"; docs/reference/API-FACTS.md §10): a URN of
 * the schools directory links the school; a partial update without a URN unlinks it (§10.5).
 * 404 `Trainee(s) not found` for an unknown trainee or another provider's, `Placement(s) not found`
 * for an unknown placement; 422 with every failed rule, or naming `data` when it is missing; where
 * the version refuses writes to a trainee in recommended_for_award, withdrawn or awarded, 422
 * StateTransitionError.
 */
@ApiController('trainees/:trainee_id/placements', 'Placements')
@IdParam('trainee_id')
export class PlacementsController {
  constructor(
    readonly commands: CommandBus,
    readonly queries: QueryBus,
  ) {}

  /** GET …/placements: 200 `{data: [Placement]}` in creation order, `[]` when none (docs/DESIGN.md ruling 9). */
  @Get()
  @DOCS.list
  async list(@ItemParams() r: ItemRequest): Promise<{ data: unknown[] }> {
    const placements = await this.queries.execute<ListPlacementsQuery, Placement[]>(new ListPlacementsQuery(r.caller, r.traineeId));
    return { data: placements.map((p) => r.contract.output.serializePlacement(p)) };
  }

  /** GET …/placements/{placement_id}: 200 `{data: Placement}`. */
  @Get(':placement_id')
  @DOCS.get
  async get(@ItemParams('placement_id') r: ItemRequest): Promise<{ data: unknown }> {
    const placement = await this.queries.execute<GetPlacementQuery, Placement>(new GetPlacementQuery(r.caller, r.traineeId, r.itemId));
    return { data: r.contract.output.serializePlacement(placement) };
  }

  /** POST …/placements: 201 `{data: Placement}`, with `school_id` where the version answers it (docs/DESIGN.md ruling 10). */
  @Post()
  @DOCS.create
  @HttpCode(201)
  async create(@ItemParams() r: ItemRequest, @WireBody('placement') data: RequestData<PlacementFields>): Promise<{ data: unknown }> {
    const command = new AddPlacementCommand(r.caller, r.contract.rules, r.traineeId, data);
    const placement = await this.commands.execute<AddPlacementCommand, Placement>(command);
    return { data: r.contract.output.serializePlacement(placement, { created: true }) };
  }

  /** PUT …/placements/{placement_id}: the fields sent replace the stored ones (§10.5); 200 `{data: Placement}`. */
  @Put(':placement_id')
  @DOCS.replace
  put(@ItemParams('placement_id') r: ItemRequest, @WireBody('placement') data: RequestData<PlacementFields>): Promise<{ data: unknown }> {
    return this.update(r, data);
  }

  /** PATCH …/placements/{placement_id}: as PUT. */
  @Patch(':placement_id')
  @DOCS.update
  patch(@ItemParams('placement_id') r: ItemRequest, @WireBody('placement') data: RequestData<PlacementFields>): Promise<{ data: unknown }> {
    return this.update(r, data);
  }

  /** DELETE …/placements/{placement_id}: 200 `{data: Trainee}`, the trainee after the removal (docs/reference/API-FACTS.md §4). */
  @Delete(':placement_id')
  @DOCS.remove
  @HttpCode(200)
  async remove(@ItemParams('placement_id') r: ItemRequest): Promise<{ data: unknown }> {
    const command = new RemovePlacementCommand(r.caller, r.contract.rules, r.traineeId, r.itemId);
    const trainee = await this.commands.execute<RemovePlacementCommand, Trainee>(command);
    return { data: r.contract.output.serializeTrainee(trainee, { nested: true }) };
  }

  private async update(r: ItemRequest, data: RequestData<PlacementFields>): Promise<{ data: unknown }> {
    const command = new UpdatePlacementCommand(r.caller, r.contract.rules, r.traineeId, r.itemId, data);
    const placement = await this.commands.execute<UpdatePlacementCommand, Placement>(command);
    return { data: r.contract.output.serializePlacement(placement) };
  }
}
