import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { Answers, ApiVersionParam, Authenticated, IdParam, NotFoundAnswer, Operation, Writes } from '../openapi/operation.decorators';
import type { Caller } from '@app/application';
import type { VersionContract } from '@app/contract';
import type { Placement, PlacementFields, RequestData, Trainee } from '@app/domain';
import { ApiGuard } from '../shared/api.guard';
import { Contract, CurrentCaller } from '../shared/request-context';
import { WireBody } from '../shared/wire-body';
import {
  AddPlacementCommand,
  GetPlacementQuery,
  ListPlacementsQuery,
  RemovePlacementCommand,
  UpdatePlacementCommand,
} from './placement.handlers';

/**
 * A trainee's school placements (docs/spec/trainee-records-api.md "Placement object", endpoints under
 * /trainees/{trainee_id}/placements; docs/reference/API-FACTS.md §10). 404 `Trainee(s) not found` for an unknown
 * trainee or another provider's, `Placement(s) not found` for an unknown placement; 422 with every
 * failed rule (blank name, invalid URN or postcode) or naming `data` when it is missing; where the
 * version refuses writes to a trainee in recommended_for_award, withdrawn or awarded, 422 StateTransitionError.
 */
@Controller('api/:api_version/trainees/:trainee_id/placements')
@UseGuards(ApiGuard)
@ApiTags('Placements')
@ApiVersionParam()
@IdParam('trainee_id')
@Authenticated()
export class PlacementsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** GET …/placements: 200 `{data: [Placement]}`, `[]` when none (docs/DESIGN.md ruling 9). */
  @Get()
  @Operation('listPlacements', "A trainee's placements")
  @Answers(200, 'The placements, in creation order.', 'PlacementListResponse')
  @NotFoundAnswer()
  async list(@CurrentCaller() caller: Caller, @Contract() contract: VersionContract, @Param('trainee_id') traineeId: string): Promise<{ data: unknown[] }> {
    const placements = await this.queries.execute<ListPlacementsQuery, Placement[]>(new ListPlacementsQuery(caller, traineeId));
    return { data: placements.map((p) => contract.output.serializePlacement(p)) };
  }

  /** GET …/placements/{placement_id}: 200 `{data: Placement}`. */
  @Get(':placement_id')
  @Operation('getPlacement', 'One placement')
  @IdParam('placement_id')
  @Answers(200, 'The placement.', 'PlacementResponse')
  @NotFoundAnswer('Trainee(s) or Placement(s) not found.')
  async get(
    @CurrentCaller() caller: Caller,
    @Contract() contract: VersionContract,
    @Param('trainee_id') traineeId: string,
    @Param('placement_id') placementId: string,
  ): Promise<{ data: unknown }> {
    const placement = await this.queries.execute<GetPlacementQuery, Placement>(new GetPlacementQuery(caller, traineeId, placementId));
    return { data: contract.output.serializePlacement(placement) };
  }

  /** POST …/placements with `{data: {urn, name, postcode}}`: 201 `{data: Placement}` (with `school_id` where the version has it, docs/DESIGN.md ruling 10). */
  @Post()
  @Operation('createPlacement', 'Add a placement', 'A URN of the schools directory links the school (its name, postcode and address).')
  @Writes('PlacementRequest', { notFound: true })
  @Answers(201, 'The placement.', 'PlacementCreatedResponse')
  @HttpCode(201)
  async create(
    @CurrentCaller() caller: Caller,
    @Contract() contract: VersionContract,
    @Param('trainee_id') traineeId: string,
    @WireBody('placement') data: RequestData<PlacementFields>,
  ): Promise<{ data: unknown }> {
    const placement = await this.commands.execute<AddPlacementCommand, Placement>(new AddPlacementCommand(caller, contract.rules, traineeId, data));
    return { data: contract.output.serializePlacement(placement, { created: true }) };
  }

  /** PUT …/placements/{placement_id}: the fields sent replace the stored ones; 200 `{data: Placement}`. */
  @Put(':placement_id')
  @Operation('replacePlacement', 'Change a placement (the fields sent replace the stored ones)')
  @IdParam('placement_id')
  @Writes('PlacementRequest', { notFound: true })
  @Answers(200, 'The placement after the change.', 'PlacementResponse')
  put(
    @CurrentCaller() caller: Caller,
    @Contract() contract: VersionContract,
    @Param('trainee_id') t: string,
    @Param('placement_id') p: string,
    @WireBody('placement') data: RequestData<PlacementFields>,
  ): Promise<{ data: unknown }> {
    return this.update(caller, contract, t, p, data);
  }

  /** PATCH …/placements/{placement_id}: as PUT. */
  @Patch(':placement_id')
  @Operation('updatePlacement', 'Change a placement', 'As PUT.')
  @IdParam('placement_id')
  @Writes('PlacementRequest', { notFound: true })
  @Answers(200, 'The placement after the change.', 'PlacementResponse')
  patch(
    @CurrentCaller() caller: Caller,
    @Contract() contract: VersionContract,
    @Param('trainee_id') t: string,
    @Param('placement_id') p: string,
    @WireBody('placement') data: RequestData<PlacementFields>,
  ): Promise<{ data: unknown }> {
    return this.update(caller, contract, t, p, data);
  }

  /** DELETE …/placements/{placement_id}: 200 `{data: Trainee}`, the parent after the removal (docs/reference/API-FACTS.md §4). */
  @Delete(':placement_id')
  @Operation('deletePlacement', 'Remove a placement')
  @IdParam('placement_id')
  @Answers(200, 'The trainee after the removal.', 'TraineeResponse')
  @NotFoundAnswer('Trainee(s) or Placement(s) not found.')
  @Answers(409, 'A concurrent change of the trainee; retry.', 'Conflict')
  @Answers(422, 'StateTransitionError: the trainee\'s state refuses the change.', 'UnprocessableEntity')
  @HttpCode(200)
  async remove(
    @CurrentCaller() caller: Caller,
    @Contract() contract: VersionContract,
    @Param('trainee_id') traineeId: string,
    @Param('placement_id') placementId: string,
  ): Promise<{ data: unknown }> {
    const trainee = await this.commands.execute<RemovePlacementCommand, Trainee>(new RemovePlacementCommand(caller, contract.rules, traineeId, placementId));
    return { data: contract.output.serializeTrainee(trainee, { nested: true }) };
  }

  private async update(caller: Caller, contract: VersionContract, traineeId: string, placementId: string, data: RequestData<PlacementFields>): Promise<{ data: unknown }> {
    const placement = await this.commands.execute<UpdatePlacementCommand, Placement>(
      new UpdatePlacementCommand(caller, contract.rules, traineeId, placementId, data),
    );
    return { data: contract.output.serializePlacement(placement) };
  }
}
