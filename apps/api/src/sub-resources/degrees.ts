import { findDegree } from '@app/trainees/decider';
import type { Degree, DegreeFields } from '@app/trainees/record';
import type { SubResource } from './sub-resource';
import { subResourceController } from './sub-resource.controller';

/**
 * A trainee's previous degrees (docs/spec/trainee-records-api.md "Degree object"; docs/reference/API-FACTS.md
 * §11): 409 `This is a duplicate degree` with the existing degrees (docs/spec/trainee-records-api.md
 * "Duplicate rules"); an update is partial, only the keys sent change (§11.7); 201 answers an array
 * holding the degree (docs/DESIGN.md ruling 2).
 */
export const DEGREES: SubResource<Degree, DegreeFields> = {
  name: 'degree',
  path: 'degrees',
  itemsOf: (trainee) => trainee.degrees,
  find: findDegree,
  schoolsFor: () => null,
  add: (base, degree_id, data) => ({ type: 'AddDegree', ...base, degree_id, data }),
  update: (base, degree_id, data) => ({ type: 'UpdateDegree', ...base, degree_id, data }),
  remove: (base, degree_id) => ({ type: 'RemoveDegree', ...base, degree_id }),
  serialize: (contract, degree) => contract.output.serializeDegree(degree),
  created: (contract, degree) => [contract.output.serializeDegree(degree)],
};

/** The degree endpoints under /api/{version}/trainees/{trainee_id}/degrees. */
export class DegreesController extends subResourceController(DEGREES, {
  tag: 'Degrees',
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
}) {}
