import { findPlacement } from '@app/trainees/decider';
import type { Placement, PlacementFields } from '@app/trainees/record';
import { schoolsNamedBy } from '@app/trainees/write';
import type { ChildResource } from '../child-resources/child-resource';
import { childResourceController } from '../child-resources/child-resource.controller';

/**
 * A trainee's school placements under /api/{version}/trainees/{trainee_id}/placements
 * (docs/spec/trainee-records-api.md "Placement object"; docs/reference/API-FACTS.md §10): a URN of
 * the schools directory links the school (§10.3); the fields sent replace the stored ones, so a
 * partial update without a URN unlinks it (§10.5); the 201 carries `school_id` where the version
 * answers it (docs/DESIGN.md ruling 10).
 */
export const PLACEMENTS: ChildResource<'placement', Placement, PlacementFields> = {
  name: 'placement',
  record: { of: (trainee) => trainee.placements, find: findPlacement },
  answer: {
    one: (output, placement) => output.serializePlacement(placement),
    created: (output, placement) => output.serializePlacement(placement, { created: true }),
  },
  commands: {
    add: (base, placement_id, data, schools) => ({ ...base, type: 'AddPlacement', placement_id, data, schools }),
    update: (base, placement_id, data, schools) => ({ ...base, type: 'UpdatePlacement', placement_id, data, schools }),
    remove: (base, placement_id) => ({ ...base, type: 'RemovePlacement', placement_id }),
    schools: (lookup, data) => schoolsNamedBy(lookup, data.kind === 'data' ? [data.fields] : []),
  },
  docs: {
    replaceNote: 'the fields sent replace the stored ones',
    createDescription: 'A URN of the schools directory links the school (its name, postcode and address).',
    createdDescription: 'The placement.',
  },
};

/** The placements' six endpoints. */
export const PlacementsController = childResourceController(PLACEMENTS);
