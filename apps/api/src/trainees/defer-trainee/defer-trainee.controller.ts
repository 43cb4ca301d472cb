import { Post } from '@nestjs/common';
import { Operation } from '../../openapi/operation.decorators';
import { traineeWriteController } from '../trainee-write/trainee-write.controller';

/** POST …/trainees/{trainee_id}/defer with the deferral's body (API-FACTS §12.3): 200 `deferred`; errors as every write. */
export const DeferTraineeController = traineeWriteController(
  { command: 'DeferTrainee', body: 'deferral', tag: 'Lifecycle', answer: [200, 'The trainee, deferred.'] },
  Post('defer'),
  Operation('deferTrainee', 'Defer a trainee', 'From submitted_for_trn or trn_received.'),
);
