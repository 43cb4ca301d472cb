import { schoolsNamedBy } from '@app/trainees/write';
import { findPlacement } from '@app/trainees/decider';
import type { Placement, PlacementFields } from '@app/trainees/record';
import type { SubResource } from './sub-resource';
import { subResourceController } from './sub-resource.controller';

/**
 * A trainee's school placements (docs/spec/trainee-records-api.md "Placement object"; docs/reference/API-FACTS.md
 * §10): a URN of the schools directory links the school; a partial update without a URN unlinks it
 * (§10.5); 201 answers the placement (with `school_id` where the version has it, docs/DESIGN.md ruling 10).
 */
export const PLACEMENTS: SubResource<Placement, PlacementFields> = {
  name: 'placement',
  path: 'placements',
  itemsOf: (trainee) => trainee.placements,
  find: findPlacement,
  schoolsFor: (lookup, data) => schoolsNamedBy(lookup, data.kind === 'data' ? [data.fields] : []),
  add: (base, placement_id, data, schools) => ({ type: 'AddPlacement', ...base, placement_id, data, schools: schools ?? new Map() }),
  update: (base, placement_id, data, schools) => ({ type: 'UpdatePlacement', ...base, placement_id, data, schools: schools ?? new Map() }),
  remove: (base, placement_id) => ({ type: 'RemovePlacement', ...base, placement_id }),
  serialize: (contract, placement) => contract.output.serializePlacement(placement),
  created: (contract, placement) => contract.output.serializePlacement(placement, { created: true }),
};

/** The placement endpoints under /api/{version}/trainees/{trainee_id}/placements. */
export class PlacementsController extends subResourceController(PLACEMENTS, {
  tag: 'Placements',
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
}) {}
