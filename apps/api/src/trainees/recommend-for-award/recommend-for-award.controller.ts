import { Post } from '@nestjs/common';
import { Operation } from '../../openapi/operation.decorators';
import { traineeWriteController, type TraineeWrite } from '../trainee-write/trainee-write.controller';

/** A recommendation for QTS or EYTS: `{data: RecommendationInput}`, answered 202 while the registry awards. */
const RECOMMEND: TraineeWrite<'RecommendForAward'> = {
  command: 'RecommendForAward',
  body: 'recommendation',
  tag: 'Lifecycle',
  answer: [202, 'The trainee, recommended for award.'],
};

/**
 * POST /api/{version}/trainees/{trainee_id}/recommend-for-qts (docs/reference/API-FACTS.md §12.5;
 * docs/DESIGN.md ruling 8): 202 `{data: Trainee}` in state `recommended_for_award`, the date the
 * standards were met and the instant recorded; 404 unknown or another provider's trainee; 422
 * StateTransitionError or every failed rule of the body.
 */
export const RecommendForQtsController = traineeWriteController(
  RECOMMEND,
  Post('recommend-for-qts'),
  Operation(
    'recommendForQts',
    'Recommend a trainee for QTS or EYTS',
    'From submitted_for_trn or trn_received (docs/DESIGN.md ruling 8); the registry then awards.',
  ),
);

/** POST …/update-qts-or-eyts-status: as recommend-for-qts where the version routes it (§1.9); elsewhere 404 Not found. */
export const UpdateQtsOrEytsStatusController = traineeWriteController(
  { ...RECOMMEND, feature: 'updateQtsOrEytsStatus' },
  Post('update-qts-or-eyts-status'),
  Operation('updateQtsOrEytsStatus', 'Recommend a trainee for QTS or EYTS (as recommend-for-qts)'),
);
