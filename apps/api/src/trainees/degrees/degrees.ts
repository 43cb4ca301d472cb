import { findDegree } from '@app/trainees/decider';
import type { Degree, DegreeFields } from '@app/trainees/record';
import type { ChildResource } from '../child-resources/child-resource';
import { childResourceController } from '../child-resources/child-resource.controller';

/**
 * A trainee's previous degrees (API-FACTS §11): 409 `This is a duplicate degree` with the existing ones; an update changes only the keys
 * sent (§11.7); the 201's `data` is an array holding the degree (ruling 2).
 */
export const DEGREES: ChildResource<'degree', Degree, DegreeFields> = {
  name: 'degree',
  record: { of: (trainee) => trainee.degrees, find: findDegree },
  answer: { one: (output, degree) => output.serializeDegree(degree), created: (output, degree) => [output.serializeDegree(degree)] },
  commands: {
    add: (base, degree_id, data) => ({ ...base, type: 'AddDegree', degree_id, data }),
    update: (base, degree_id, data) => ({ ...base, type: 'UpdateDegree', degree_id, data }),
    remove: (base, degree_id) => ({ ...base, type: 'RemoveDegree', degree_id }),
  },
  docs: {
    replaceNote: 'partial: only the fields sent change',
    createdDescription: 'An array holding the degree.',
    conflict: 'DuplicateDegree',
  },
};

export const DegreesController = childResourceController(DEGREES);
