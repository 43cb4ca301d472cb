import { Patch, Put } from '@nestjs/common';
import { Operation } from '../../openapi/operation.decorators';
import { traineeWriteController, type TraineeWrite } from '../trainee-write/trainee-write.controller';

/**
 * A change of the trainee's own fields, merged into the stored record and checked with the create
 * rules (docs/reference/API-FACTS.md §7.1): 200 the trainee (unchanged when `data` holds nothing to
 * change, §7.3); with `Enhanced-Errors: true` a validation 422 is keyed by field (§5.4).
 */
const UPDATE: TraineeWrite<'UpdateTrainee'> = {
  command: 'UpdateTrainee',
  body: 'traineeUpdate',
  tag: 'Trainees',
  answer: [200, 'The trainee after the change.'],
  enhancedErrors: true,
};

/**
 * PUT /api/{version}/trainees/{trainee_id}: merge semantics, identical to PATCH (§7.1). 200
 * `{data: Trainee}`; 404 unknown trainee or another provider's; 422 on any failed rule (and
 * StateTransitionError where the version refuses writes in recommended_for_award, withdrawn,
 * awarded).
 */
export const ReplaceTraineeController = traineeWriteController(
  UPDATE,
  Put(),
  Operation(
    'replaceTrainee',
    'Change a trainee (merge, as PATCH)',
    'The fields sent replace the stored ones; the merged record is checked with the create rules. A body holding nothing to change answers the trainee unchanged.',
  ),
);

/** PATCH /api/{version}/trainees/{trainee_id}: as PUT. */
export const UpdateTraineeController = traineeWriteController(
  UPDATE,
  Patch(),
  Operation('updateTrainee', 'Change a trainee (merge)', 'As PUT.'),
);
