import { Module } from '@nestjs/common';
import { AddDegreeHandler, RemoveDegreeHandler, UpdateDegreeHandler } from './degrees/degree.commands';
import { GetDegreeHandler, ListDegreesHandler } from './degrees/degree.queries';
import { DegreesController } from './degrees/degrees.controller';
import { AddPlacementHandler, RemovePlacementHandler, UpdatePlacementHandler } from './placements/placement.commands';
import { GetPlacementHandler, ListPlacementsHandler } from './placements/placement.queries';
import { PlacementsController } from './placements/placements.controller';
import { DeferTraineeController } from './defer-trainee/defer-trainee.controller';
import { DeferTraineeHandler } from './defer-trainee/defer-trainee.handler';
import { GetTraineeController } from './get-trainee/get-trainee.controller';
import { GetTraineeHandler } from './get-trainee/get-trainee.query';
import { TraineeHistoryController } from './history/trainee-history.controller';
import { TraineeHistoryHandler } from './history/trainee-history.query';
import { ListTraineesController } from './list-trainees/list-trainees.controller';
import { ListTraineesHandler } from './list-trainees/list-trainees.query';
import { ListTraineesAsOfHandler } from './list-trainees/list-trainees-as-of.query';
import { RecommendForAwardController } from './recommend-for-award/recommend-for-award.controller';
import { RecommendForAwardHandler } from './recommend-for-award/recommend-for-award.handler';
import { RegisterTraineeController } from './register-trainee/register-trainee.controller';
import { RegisterTraineeHandler } from './register-trainee/register-trainee.handler';
import { UpdateTraineeController } from './update-trainee/update-trainee.controller';
import { UpdateTraineeHandler } from './update-trainee/update-trainee.handler';
import { WithdrawTraineeController } from './withdraw-trainee/withdraw-trainee.controller';
import { WithdrawTraineeHandler } from './withdraw-trainee/withdraw-trainee.handler';

/**
 * The trainees under /api/{version}/trainees: one slice per endpoint, its controller and its
 * `@nestjs/cqrs` command or query handler (docs/DESIGN.md "Where each endpoint lives"). The
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
    GetTraineeHandler,
    ListTraineesHandler,
    ListTraineesAsOfHandler,
    ListPlacementsHandler,
    GetPlacementHandler,
    AddPlacementHandler,
    UpdatePlacementHandler,
    RemovePlacementHandler,
    ListDegreesHandler,
    GetDegreeHandler,
    AddDegreeHandler,
    UpdateDegreeHandler,
    RemoveDegreeHandler,
    DeferTraineeHandler,
    WithdrawTraineeHandler,
    RecommendForAwardHandler,
    TraineeHistoryHandler,
  ],
})
export class TraineesModule {}
