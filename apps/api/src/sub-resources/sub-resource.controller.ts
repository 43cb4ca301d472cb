import { Delete, Get, HttpCode, Param, Patch, Post, Put, type Type } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Caller } from '@app/application';
import type { VersionContract } from '@app/contract';
import type { RequestData, Trainee } from '@app/domain';
import { ApiController } from '../kernel/api-controller.decorator';
import { Contract, CurrentCaller } from '../kernel/request-context';
import { WireBody } from '../kernel/wire-body';
import { Answers, IdParam, NotFoundAnswer, Operation, Writes } from '../openapi/operation.decorators';
import type { AnySubResource } from './sub-resource';
import { AddItemCommand, GetItemQuery, ListItemsQuery, RemoveItemCommand, UpdateItemCommand } from './sub-resource.handlers';

type Endpoint = 'list' | 'get' | 'create' | 'replace' | 'update' | 'remove';

/** How the OpenAPI document names and describes one sub-resource's endpoints. */
export interface SubResourceDocs {
  tag: string;
  operations: Record<Endpoint, string>;
  titles: Record<Endpoint, string>;
  createDescription?: string;
  /** Component names: the request body, the list, one item, the 201's body. */
  schemas: { request: string; list: string; item: string; created: string };
  createdDescription: string;
  /** The conflict a write can answer (degrees: `DuplicateDegree`). */
  conflict?: string;
}

/**
 * The controller of a sub-resource under /api/{version}/trainees/{trainee_id}/<path>
 * (docs/spec/trainee-records-api.md, the endpoints of placements and degrees; docs/reference/API-FACTS.md
 * §4, §10, §11), made for one kind:
 * - GET …/<path>: 200 `{data: [item]}`, `[]` when none (docs/DESIGN.md ruling 9);
 * - GET …/<path>/{id}: 200 `{data: item}`;
 * - POST …/<path>: 201 with the kind's created body;
 * - PUT and PATCH …/<path>/{id}: 200 `{data: item}` after the change;
 * - DELETE …/<path>/{id}: 200 `{data: Trainee}`, the parent after the removal (§4).
 * 404 `Trainee(s) not found` for an unknown trainee or another provider's, `<Kind>(s) not found` for
 * an unknown item; 422 with every failed rule or naming `data` when it is missing; where the version
 * refuses writes to a trainee in recommended_for_award, withdrawn or awarded, 422 StateTransitionError.
 */
export function subResourceController(kind: AnySubResource, docs: SubResourceDocs): Type<object> {
  const idParam = `${kind.name}_id` as 'placement_id' | 'degree_id';
  const notFound = `Trainee(s) or ${kind.name[0].toUpperCase()}${kind.name.slice(1)}(s) not found.`;
  const writes = { notFound: true, conflict: docs.conflict };

  @ApiController(`trainees/:trainee_id/${kind.path}`, docs.tag)
  @IdParam('trainee_id')
  class SubResourceController {
    constructor(
      readonly commands: CommandBus,
      readonly queries: QueryBus,
    ) {}

    /** The trainee's items in creation order. */
    @Get()
    @Operation(docs.operations.list, docs.titles.list)
    @Answers(200, `The ${kind.path}, in creation order.`, docs.schemas.list)
    @NotFoundAnswer()
    async list(@CurrentCaller() caller: Caller, @Contract() contract: VersionContract, @Param('trainee_id') traineeId: string): Promise<{ data: unknown[] }> {
      const items = await this.queries.execute<ListItemsQuery, unknown[]>(new ListItemsQuery(kind, caller, traineeId));
      return { data: items.map((item) => kind.serialize(contract, item)) };
    }

    /** One item. */
    @Get(`:${idParam}`)
    @Operation(docs.operations.get, docs.titles.get)
    @IdParam(idParam)
    @Answers(200, `The ${kind.name}.`, docs.schemas.item)
    @NotFoundAnswer(notFound)
    async get(
      @CurrentCaller() caller: Caller,
      @Contract() contract: VersionContract,
      @Param('trainee_id') traineeId: string,
      @Param(idParam) itemId: string,
    ): Promise<{ data: unknown }> {
      const item = await this.queries.execute<GetItemQuery, unknown>(new GetItemQuery(kind, caller, traineeId, itemId));
      return { data: kind.serialize(contract, item) };
    }

    /** Adds an item. */
    @Post()
    @Operation(docs.operations.create, docs.titles.create, docs.createDescription)
    @Writes(docs.schemas.request, writes)
    @Answers(201, docs.createdDescription, docs.schemas.created)
    @HttpCode(201)
    async create(
      @CurrentCaller() caller: Caller,
      @Contract() contract: VersionContract,
      @Param('trainee_id') traineeId: string,
      @WireBody(kind.name) data: RequestData<unknown>,
    ): Promise<{ data: unknown }> {
      const item = await this.commands.execute<AddItemCommand, unknown>(new AddItemCommand(kind, caller, contract.rules, traineeId, data));
      return { data: kind.created(contract, item) };
    }

    /** Changes an item (PUT). */
    @Put(`:${idParam}`)
    @Operation(docs.operations.replace, docs.titles.replace)
    @IdParam(idParam)
    @Writes(docs.schemas.request, writes)
    @Answers(200, `The ${kind.name} after the change.`, docs.schemas.item)
    put(
      @CurrentCaller() caller: Caller,
      @Contract() contract: VersionContract,
      @Param('trainee_id') traineeId: string,
      @Param(idParam) itemId: string,
      @WireBody(kind.name) data: RequestData<unknown>,
    ): Promise<{ data: unknown }> {
      return this.update(caller, contract, traineeId, itemId, data);
    }

    /** Changes an item (PATCH, as PUT). */
    @Patch(`:${idParam}`)
    @Operation(docs.operations.update, docs.titles.update, 'As PUT.')
    @IdParam(idParam)
    @Writes(docs.schemas.request, writes)
    @Answers(200, `The ${kind.name} after the change.`, docs.schemas.item)
    patch(
      @CurrentCaller() caller: Caller,
      @Contract() contract: VersionContract,
      @Param('trainee_id') traineeId: string,
      @Param(idParam) itemId: string,
      @WireBody(kind.name) data: RequestData<unknown>,
    ): Promise<{ data: unknown }> {
      return this.update(caller, contract, traineeId, itemId, data);
    }

    /** Removes an item; answers the parent trainee. */
    @Delete(`:${idParam}`)
    @Operation(docs.operations.remove, docs.titles.remove)
    @IdParam(idParam)
    @Answers(200, 'The trainee after the removal.', 'TraineeResponse')
    @NotFoundAnswer(notFound)
    @Answers(409, 'A concurrent change of the trainee; retry.', 'Conflict')
    @Answers(422, "StateTransitionError: the trainee's state refuses the change.", 'UnprocessableEntity')
    @HttpCode(200)
    async remove(
      @CurrentCaller() caller: Caller,
      @Contract() contract: VersionContract,
      @Param('trainee_id') traineeId: string,
      @Param(idParam) itemId: string,
    ): Promise<{ data: unknown }> {
      const trainee = await this.commands.execute<RemoveItemCommand, Trainee>(new RemoveItemCommand(kind, caller, contract.rules, traineeId, itemId));
      return { data: contract.output.serializeTrainee(trainee, { nested: true }) };
    }

    async update(caller: Caller, contract: VersionContract, traineeId: string, itemId: string, data: RequestData<unknown>): Promise<{ data: unknown }> {
      const item = await this.commands.execute<UpdateItemCommand, unknown>(new UpdateItemCommand(kind, caller, contract.rules, traineeId, itemId, data));
      return { data: kind.serialize(contract, item) };
    }
  }
  return SubResourceController;
}
