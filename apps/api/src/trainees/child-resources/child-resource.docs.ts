/**
 * The OpenAPI decorators of a child resource's six endpoints (docs/spec/trainee-records-api.md, the
 * endpoints of placements and degrees; docs/reference/API-FACTS.md §4, §10, §11), which differ only
 * in the child's names and words.
 */
import { applyDecorators } from '@nestjs/common';
import { Idempotent } from '../../idempotency/idempotency.interceptor';
import { Answers, IdParam, NotFoundAnswer, Operation, StorageUnavailable, Writes } from '../../openapi/operation.decorators';
import { childNames, type AnyChildResource } from './child-resource';

/** The endpoints of a child resource, by the controller method that serves each. */
export type ChildEndpoint = 'list' | 'get' | 'create' | 'replace' | 'update' | 'remove';

/**
 * The OpenAPI decorators of each endpoint of `child` (operation, answers, parameters, body), named
 * from its name (`placement`): operation ids `listPlacements`, `getPlacement`, `createPlacement`,
 * `replacePlacement`, `updatePlacement`, `deletePlacement`; schemas `PlacementRequest`,
 * `PlacementListResponse`, `PlacementResponse`, `PlacementCreatedResponse`.
 */
export function childEndpointDocs(child: AnyChildResource): Record<ChildEndpoint, MethodDecorator> {
  const { name, docs } = child;
  const { path, idParam, title } = childNames(name);
  const notFound = NotFoundAnswer(`Trainee(s) or ${title}(s) not found.`);
  const writes = Writes(`${title}Request`, { notFound: true, conflict: docs.conflict });
  const changed = Answers(200, `The ${name} after the change.`, `${title}Response`);
  return {
    list: applyDecorators(
      Operation(`list${title}s`, `A trainee's ${path}`),
      Answers(200, `The ${path}, in creation order.`, `${title}ListResponse`),
      NotFoundAnswer(),
    ),
    get: applyDecorators(
      Operation(`get${title}`, `One ${name}`),
      IdParam(idParam),
      Answers(200, `The ${name}.`, `${title}Response`),
      notFound,
    ),
    create: applyDecorators(
      Operation(`create${title}`, `Add a ${name}`, docs.createDescription),
      writes,
      Answers(201, docs.createdDescription, `${title}CreatedResponse`),
    ),
    replace: applyDecorators(Operation(`replace${title}`, `Change a ${name} (${docs.replaceNote})`), IdParam(idParam), writes, changed),
    update: applyDecorators(Operation(`update${title}`, `Change a ${name}`, 'As PUT.'), IdParam(idParam), writes, changed),
    remove: applyDecorators(
      Operation(`delete${title}`, `Remove a ${name}`),
      IdParam(idParam),
      Answers(200, 'The trainee after the removal.', 'TraineeResponse'),
      notFound,
      Idempotent(),
      StorageUnavailable(),
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
