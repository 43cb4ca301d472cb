import { Patch, Put } from '@nestjs/common';
import { Operation } from '../../openapi/operation.decorators';
import { traineeWriteController, type TraineeWrite } from '../trainee-write/trainee-write.controller';

/** Merged into the stored record, checked with the create rules (API-FACTS §7.1); nothing to change: 200 unchanged (§7.3). */
const UPDATE: TraineeWrite<'UpdateTrainee'> = {
  command: 'UpdateTrainee',
  body: 'traineeUpdate',
  tag: 'Trainees',
  answer: [200, 'The trainee after the change.'],
  enhancedErrors: true,
};

/** PUT /api/{version}/trainees/{trainee_id}: merge semantics, as PATCH (§7.1); 422 also where the state refuses writes. */
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
