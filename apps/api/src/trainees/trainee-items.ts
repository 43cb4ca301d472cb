/**
 * What the placement and degree slices share (docs/spec/trainee-records-api.md, the endpoints of
 * placements and degrees; docs/reference/API-FACTS.md §4, §10, §11): the request an item endpoint
 * reads, and the OpenAPI decorators of their six endpoints, which differ only in names.
 */
import { applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { VersionContract } from '@app/trainees/contract';
import type { Caller } from '@app/trainees/write';
import type { ApiRequest } from '../auth/request-context';
import { Idempotent } from '../idempotency/idempotency.interceptor';
import { Answers, IdParam, NotFoundAnswer, Operation, Writes } from '../openapi/operation.decorators';

/** What an item endpoint reads of its request (set by the API guard and the path): the caller, the version's contract, the ids as sent. */
export interface ItemRequest {
  caller: Caller;
  contract: VersionContract;
  traineeId: string;
  /** The item id of the path (`idParam`); '' on the collection's endpoints. */
  itemId: string;
}

/** Controller parameter: the {@link ItemRequest} of an item endpoint whose item id parameter is `idParam` (none on the collection). */
export const ItemParams = createParamDecorator((idParam: string | undefined, ctx: ExecutionContext): ItemRequest => {
  const req = ctx.switchToHttp().getRequest<ApiRequest>();
  if (!req.caller || !req.contract) throw new Error('ItemParams used on a route without the API guard');
  const params = (req.params ?? {}) as Record<string, string>;
  return { caller: req.caller, contract: req.contract, traineeId: params.trainee_id, itemId: idParam ? (params[idParam] ?? '') : '' };
});

type Endpoint = 'list' | 'get' | 'create' | 'replace' | 'update' | 'remove';

/** How the OpenAPI document names and describes one kind of item's endpoints. */
export interface ItemDocs {
  /** Singular: `placement`, `degree`. */
  name: 'placement' | 'degree';
  /** Plural, the path segment: `placements`, `degrees`. */
  path: string;
  idParam: 'placement_id' | 'degree_id';
  operations: Record<Endpoint, string>;
  titles: Record<Endpoint, string>;
  createDescription?: string;
  /** Component names: the request body, the list, one item, the 201's body. */
  schemas: { request: string; list: string; item: string; created: string };
  createdDescription: string;
  /** The conflict a write can answer (degrees: `DuplicateDegree`). */
  conflict?: string;
}

/** The OpenAPI decorators of each endpoint of a kind of item (operation, answers, parameters, body). */
export function itemEndpointDocs(docs: ItemDocs): Record<Endpoint, MethodDecorator> {
  const title = `${docs.name[0].toUpperCase()}${docs.name.slice(1)}`;
  const notFound = NotFoundAnswer(`Trainee(s) or ${title}(s) not found.`);
  const writes = Writes(docs.schemas.request, { notFound: true, conflict: docs.conflict });
  const changed = Answers(200, `The ${docs.name} after the change.`, docs.schemas.item);
  return {
    list: applyDecorators(
      Operation(docs.operations.list, docs.titles.list),
      Answers(200, `The ${docs.path}, in creation order.`, docs.schemas.list),
      NotFoundAnswer(),
    ),
    get: applyDecorators(
      Operation(docs.operations.get, docs.titles.get),
      IdParam(docs.idParam),
      Answers(200, `The ${docs.name}.`, docs.schemas.item),
      notFound,
    ),
    create: applyDecorators(
      Operation(docs.operations.create, docs.titles.create, docs.createDescription),
      writes,
      Answers(201, docs.createdDescription, docs.schemas.created),
    ),
    replace: applyDecorators(Operation(docs.operations.replace, docs.titles.replace), IdParam(docs.idParam), writes, changed),
    update: applyDecorators(Operation(docs.operations.update, docs.titles.update, 'As PUT.'), IdParam(docs.idParam), writes, changed),
    remove: applyDecorators(
      Operation(docs.operations.remove, docs.titles.remove),
      IdParam(docs.idParam),
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
