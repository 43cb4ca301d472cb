import {
  applyDecorators,
  createParamDecorator,
  Delete,
  Get,
  HttpCode,
  Patch,
  Post,
  Put,
  type ExecutionContext,
  type Type,
} from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Caller } from '@app/trainees/write';
import type { VersionContract } from '@app/trainees/contract';
import type { RequestData, Trainee } from '@app/trainees/decider';
import { ApiController } from '../auth/api-controller.decorator';
import type { ApiRequest } from '../auth/request-context';
import { WireBody } from '../bodies/wire-body';
import { Answers, IdParam, NotFoundAnswer, Operation, Writes } from '../openapi/operation.decorators';
import { Idempotent } from '../idempotency/idempotency.interceptor';
import type { AnySubResource } from './sub-resource';
import { AddItemCommand, RemoveItemCommand, UpdateItemCommand } from './sub-resource.commands';
import { GetItemQuery, ListItemsQuery } from './sub-resource.queries';

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

/** What an item endpoint reads of its request (set by the API guard and the path): the caller, the version's contract, the ids as sent. */
interface ItemRequest {
  caller: Caller;
  contract: VersionContract;
  traineeId: string;
  /** The item id of the path; '' on the collection's endpoints. */
  itemId: string;
}

/** Controller parameter: the {@link ItemRequest} of a sub-resource endpoint whose item id parameter is `idParam`. */
const Item = createParamDecorator((idParam: string, ctx: ExecutionContext): ItemRequest => {
  const req = ctx.switchToHttp().getRequest<ApiRequest>();
  if (!req.caller || !req.contract) throw new Error('Item used on a route without the API guard');
  const params = (req.params ?? {}) as Record<string, string>;
  return { caller: req.caller, contract: req.contract, traineeId: params.trainee_id, itemId: params[idParam] ?? '' };
});

/** The OpenAPI decorators of each endpoint of a sub-resource (operation, answers, parameters, body). */
function endpointDocs(
  kind: AnySubResource,
  docs: SubResourceDocs,
  idParam: 'placement_id' | 'degree_id',
): Record<Endpoint, MethodDecorator> {
  const title = `${kind.name[0].toUpperCase()}${kind.name.slice(1)}`;
  const notFound = NotFoundAnswer(`Trainee(s) or ${title}(s) not found.`);
  const writes = Writes(docs.schemas.request, { notFound: true, conflict: docs.conflict });
  const changed = Answers(200, `The ${kind.name} after the change.`, docs.schemas.item);
  return {
    list: applyDecorators(
      Operation(docs.operations.list, docs.titles.list),
      Answers(200, `The ${kind.path}, in creation order.`, docs.schemas.list),
      NotFoundAnswer(),
    ),
    get: applyDecorators(
      Operation(docs.operations.get, docs.titles.get),
      IdParam(idParam),
      Answers(200, `The ${kind.name}.`, docs.schemas.item),
      notFound,
    ),
    create: applyDecorators(
      Operation(docs.operations.create, docs.titles.create, docs.createDescription),
      writes,
      Answers(201, docs.createdDescription, docs.schemas.created),
    ),
    replace: applyDecorators(Operation(docs.operations.replace, docs.titles.replace), IdParam(idParam), writes, changed),
    update: applyDecorators(Operation(docs.operations.update, docs.titles.update, 'As PUT.'), IdParam(idParam), writes, changed),
    remove: applyDecorators(
      Operation(docs.operations.remove, docs.titles.remove),
      IdParam(idParam),
      Answers(200, 'The trainee after the removal.', 'TraineeResponse'),
      notFound,
      Idempotent(),
      Answers(400, '`Idempotency-Key` is not 1 to 255 visible ASCII characters.', 'BadRequest'),
      Answers(
        409,
        'A concurrent change of the trainee, or the first request with this `Idempotency-Key` still running; retry.',
        'Conflict',
      ),
      Answers(
        422,
        "StateTransitionError: the trainee's state refuses the change; `Idempotency-Key` used with another request.",
        'UnprocessableEntity',
      ),
    ),
  };
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
  const d = endpointDocs(kind, docs, idParam);

  @ApiController(`trainees/:trainee_id/${kind.path}`, docs.tag)
  @IdParam('trainee_id')
  class SubResourceController {
    constructor(
      readonly commands: CommandBus,
      readonly queries: QueryBus,
    ) {}

    /** The trainee's items in creation order. */
    @Get()
    @d.list
    async list(@Item(idParam) r: ItemRequest): Promise<{ data: unknown[] }> {
      const items = await this.queries.execute<ListItemsQuery, unknown[]>(new ListItemsQuery(kind, r.caller, r.traineeId));
      return { data: items.map((item) => kind.serialize(r.contract, item)) };
    }

    /** One item. */
    @Get(`:${idParam}`)
    @d.get
    async get(@Item(idParam) r: ItemRequest): Promise<{ data: unknown }> {
      const item = await this.queries.execute<GetItemQuery, unknown>(new GetItemQuery(kind, r.caller, r.traineeId, r.itemId));
      return { data: kind.serialize(r.contract, item) };
    }

    /** Adds an item. */
    @Post()
    @d.create
    @HttpCode(201)
    async create(@Item(idParam) r: ItemRequest, @WireBody(kind.name) data: RequestData<unknown>): Promise<{ data: unknown }> {
      const item = await this.commands.execute<AddItemCommand, unknown>(
        new AddItemCommand(kind, r.caller, r.contract.rules, r.traineeId, data),
      );
      return { data: kind.created(r.contract, item) };
    }

    /** Changes an item (PUT). */
    @Put(`:${idParam}`)
    @d.replace
    put(@Item(idParam) r: ItemRequest, @WireBody(kind.name) data: RequestData<unknown>): Promise<{ data: unknown }> {
      return this.update(r, data);
    }

    /** Changes an item (PATCH, as PUT). */
    @Patch(`:${idParam}`)
    @d.update
    patch(@Item(idParam) r: ItemRequest, @WireBody(kind.name) data: RequestData<unknown>): Promise<{ data: unknown }> {
      return this.update(r, data);
    }

    /** Removes an item; answers the parent trainee. */
    @Delete(`:${idParam}`)
    @d.remove
    @HttpCode(200)
    async remove(@Item(idParam) r: ItemRequest): Promise<{ data: unknown }> {
      const command = new RemoveItemCommand(kind, r.caller, r.contract.rules, r.traineeId, r.itemId);
      const trainee = await this.commands.execute<RemoveItemCommand, Trainee>(command);
      return { data: r.contract.output.serializeTrainee(trainee, { nested: true }) };
    }

    async update(r: ItemRequest, data: RequestData<unknown>): Promise<{ data: unknown }> {
      const command = new UpdateItemCommand(kind, r.caller, r.contract.rules, r.traineeId, r.itemId, data);
      const item = await this.commands.execute<UpdateItemCommand, unknown>(command);
      return { data: kind.serialize(r.contract, item) };
    }
  }
  return SubResourceController;
}
