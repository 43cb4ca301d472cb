import { Post } from '@nestjs/common';
import { Operation } from '../../openapi/operation.decorators';
import { traineeWriteController } from '../trainee-write/trainee-write.controller';

/**
 * POST /api/{version}/trainees/{trainee_id}/defer with `{data: DeferralInput}` (the version's
 * OpenAPI document; docs/spec/trainee-records-api.md "States and transitions"; docs/reference/API-FACTS.md §12.3):
 * 200 `{data: Trainee}` in state `deferred`; 404 for an unknown trainee or another provider's; 422
 * StateTransitionError when its state does not allow it; 422 with every failed rule of the body,
 * or naming `data` when it is missing.
 */
export const DeferTraineeController = traineeWriteController(
  { command: 'DeferTrainee', body: 'deferral', tag: 'Lifecycle', answer: [200, 'The trainee, deferred.'] },
  Post('defer'),
  Operation('deferTrainee', 'Defer a trainee', 'From submitted_for_trn or trn_received.'),
);
