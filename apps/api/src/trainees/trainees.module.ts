import { Module } from '@nestjs/common';
import { ChildWriteHandler } from './child-resources/child-write.command';
import { OwnTraineeHandler } from './child-resources/own-trainee.query';
import { DeferTraineeController } from './defer-trainee/defer-trainee.controller';
import { DegreesController } from './degrees/degrees';
import { GetTraineeController } from './get-trainee/get-trainee.controller';
import { GetTraineeHandler } from './get-trainee/get-trainee.query';
import { TraineeHistoryController } from './history/trainee-history.controller';
import { TraineeHistoryHandler } from './history/trainee-history.query';
import { ListTraineesController } from './list-trainees/list-trainees.controller';
import { ListTraineesHandler } from './list-trainees/list-trainees.query';
import { ListTraineesAsOfHandler } from './list-trainees/list-trainees-as-of.query';
import { PlacementsController } from './placements/placements';
import { RecommendForQtsController, UpdateQtsOrEytsStatusController } from './recommend-for-award/recommend-for-award.controller';
import { RegisterTraineeController } from './register-trainee/register-trainee.controller';
import { RegisterTraineeHandler } from './register-trainee/register-trainee.handler';
import { ChangeTraineeHandler } from './trainee-write/change-trainee.command';
import { ReplaceTraineeController, UpdateTraineeController } from './update-trainee/update-trainee.controller';
import { WithdrawTraineeController } from './withdraw-trainee/withdraw-trainee.controller';

/**
 * The trainees under /api/{version}/trainees (docs/DESIGN.md "Where each endpoint lives"): one
 * slice per endpoint with its controller, the writes on a trainee made from their descriptions
 * (`trainee-write/`), placements and degrees from theirs (`child-resources/`), and the
 * `@nestjs/cqrs` handlers of their commands and queries. The controllers are listed in the order
 * their routes are registered and documented.
 */
@Module({
  controllers: [
    ListTraineesController,
    RegisterTraineeController,
    GetTraineeController,
    ReplaceTraineeController,
    UpdateTraineeController,
    PlacementsController,
    DegreesController,
    DeferTraineeController,
    WithdrawTraineeController,
    RecommendForQtsController,
    UpdateQtsOrEytsStatusController,
    TraineeHistoryController,
  ],
  providers: [
    RegisterTraineeHandler,
    ChangeTraineeHandler,
    ChildWriteHandler,
    GetTraineeHandler,
    OwnTraineeHandler,
    ListTraineesHandler,
    ListTraineesAsOfHandler,
    TraineeHistoryHandler,
  ],
})
export class TraineesModule {}
