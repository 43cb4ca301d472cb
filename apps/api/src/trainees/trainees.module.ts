import { Module } from '@nestjs/common';
import { ChildWriteHandler } from './child-resources/child-write.command';
import { OwnTraineeHandler } from './child-resources/own-trainee.query';
import { DeferTraineeController } from './defer-trainee/defer-trainee.controller';
import { DeferTraineeHandler } from './defer-trainee/defer-trainee.handler';
import { DegreesController } from './degrees/degrees';
import { GetTraineeController } from './get-trainee/get-trainee.controller';
import { GetTraineeHandler } from './get-trainee/get-trainee.query';
import { TraineeHistoryController } from './history/trainee-history.controller';
import { TraineeHistoryHandler } from './history/trainee-history.query';
import { ListTraineesController } from './list-trainees/list-trainees.controller';
import { ListTraineesHandler } from './list-trainees/list-trainees.query';
import { ListTraineesAsOfHandler } from './list-trainees/list-trainees-as-of.query';
import { PlacementsController } from './placements/placements';
import { RecommendForAwardController } from './recommend-for-award/recommend-for-award.controller';
import { RecommendForAwardHandler } from './recommend-for-award/recommend-for-award.handler';
import { RegisterTraineeController } from './register-trainee/register-trainee.controller';
import { RegisterTraineeHandler } from './register-trainee/register-trainee.handler';
import { UpdateTraineeController } from './update-trainee/update-trainee.controller';
import { UpdateTraineeHandler } from './update-trainee/update-trainee.handler';
import { WithdrawTraineeController } from './withdraw-trainee/withdraw-trainee.controller';
import { WithdrawTraineeHandler } from './withdraw-trainee/withdraw-trainee.handler';

/**
 * The trainees under /api/{version}/trainees (docs/DESIGN.md "Where each endpoint lives"): one
 * slice per endpoint with its controller, placements and degrees made from their descriptions
 * (`child-resources/`), and the `@nestjs/cqrs` handlers of their commands and queries. The
 * controllers are listed in the order their routes are registered and documented.
 */
@Module({
  controllers: [
    ListTraineesController,
    RegisterTraineeController,
    GetTraineeController,
    UpdateTraineeController,
    PlacementsController,
    DegreesController,
    DeferTraineeController,
    WithdrawTraineeController,
    RecommendForAwardController,
    TraineeHistoryController,
  ],
  providers: [
    RegisterTraineeHandler,
    UpdateTraineeHandler,
    DeferTraineeHandler,
    WithdrawTraineeHandler,
    RecommendForAwardHandler,
    ChildWriteHandler,
    GetTraineeHandler,
    OwnTraineeHandler,
    ListTraineesHandler,
    ListTraineesAsOfHandler,
    TraineeHistoryHandler,
  ],
})
export class TraineesModule {}
