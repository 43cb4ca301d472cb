import { Post } from '@nestjs/common';
import { Operation } from '../../openapi/operation.decorators';
import { traineeWriteController } from '../trainee-write/trainee-write.controller';

/** POST …/trainees/{trainee_id}/withdraw (API-FACTS §12.4; ruling 7): 200 `withdrawn`; errors as every write; 422 before ITT starts. */
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
