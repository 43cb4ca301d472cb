import { Post } from '@nestjs/common';
import { Operation } from '../../openapi/operation.decorators';
import { traineeWriteController } from '../trainee-write/trainee-write.controller';

/**
 * POST /api/{version}/trainees/{trainee_id}/withdraw (docs/spec/trainee-records-api.md "States and
 * transitions"; docs/reference/API-FACTS.md §12.4; docs/DESIGN.md ruling 7) with `{data:
 * WithdrawalInput}` (the version's OpenAPI document: the date, who decided, whether the trainee
 * might return, the reasons and the texts they need): 200 `{data: Trainee}` in state
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
