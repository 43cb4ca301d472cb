import { Post } from '@nestjs/common';
import { Operation } from '../../openapi/operation.decorators';
import { traineeWriteController } from '../trainee-write/trainee-write.controller';

/**
 * POST /api/{version}/trainees/{trainee_id}/withdraw (docs/spec/trainee-records-api.md "States and
 * transitions"; docs/reference/API-FACTS.md §12.4; docs/DESIGN.md ruling 7) with the version's
 * withdrawal date field, `trigger`, `future_interest`, `reasons`, conditional `another_reason` and
 * (where the version has it) `safeguarding_concern_reasons`: 200 `{data: Trainee}` in state
 * `withdrawn`; 404 unknown or another provider's trainee; 422 StateTransitionError (state, or ITT
 * not started); 422 with every failed rule of the body.
 */
export const WithdrawTraineeController = traineeWriteController(
  {
    command: 'WithdrawTrainee',
    body: 'withdrawal',

    tag: 'Lifecycle',
    answer: [200, 'The trainee, withdrawn.'],
  },
  Post('withdraw'),
  Operation('withdrawTrainee', 'Withdraw a trainee', 'From submitted_for_trn, trn_received or deferred, once ITT has started.'),
);
