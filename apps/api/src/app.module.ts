import { Module, type DynamicModule } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import { DegreesController } from './degrees/degrees.controller';
import { DEGREE_HANDLERS } from './degrees/degree.handlers';
import { HealthController } from './health/health.controller';
import { LifecycleController } from './trainees/lifecycle/lifecycle.controller';
import { LifecycleHandler } from './trainees/lifecycle/lifecycle.handlers';
import { PlacementsController } from './placements/placements.controller';
import { PLACEMENT_HANDLERS } from './placements/placement.handlers';
import { InfoController } from './info/info.controller';
import { OpenApiController } from './openapi/openapi.controller';
import { OpenApiDocuments } from './openapi/openapi-documents';
import { ReferenceDataController } from './reference-data/reference-data.controller';
import { Infrastructure, LOGGER } from './infrastructure/infrastructure';
import { ApiAuthenticator, ApiGuard, PublicVersionGuard } from './shared/api.guard';
import { APP_CONFIG, type AppConfig } from '@app/platform';
import { VersionRegistry } from './shared/versions';
import { GetTraineeController } from './trainees/get-trainee/get-trainee.controller';
import { GetTraineeHandler } from './trainees/get-trainee/get-trainee.query';
import { ListTraineesController } from './trainees/list-trainees/list-trainees.controller';
import { ListTraineesHandler } from './trainees/list-trainees/list-trainees.query';
import { RegisterTraineeController } from './trainees/register-trainee/register-trainee.controller';
import { RegisterTraineeHandler } from './trainees/register-trainee/register-trainee.handler';
import { UpdateTraineeController } from './trainees/update-trainee/update-trainee.controller';
import { UpdateTraineeHandler } from './trainees/update-trainee/update-trainee.handler';
import { TraineeHistoryController } from './trainees/history/trainee-history.controller';
import { TraineeHistoryHandler } from './trainees/history/trainee-history.query';

/** The API's module, built for one configuration and logger. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: AppModule,
      imports: [CqrsModule.forRoot()],
      controllers: [
        HealthController,
        InfoController,
        ReferenceDataController,
        OpenApiController,
        ListTraineesController,
        RegisterTraineeController,
        GetTraineeController,
        UpdateTraineeController,
        PlacementsController,
        DegreesController,
        LifecycleController,
        TraineeHistoryController,
      ],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: LOGGER, useValue: logger },
        { provide: VersionRegistry, useValue: new VersionRegistry(config) },
        {
          provide: Infrastructure,
          useFactory: (c: AppConfig, l: Logger) => Infrastructure.create(c, l),
          inject: [APP_CONFIG, LOGGER],
        },
        ApiAuthenticator,
        ApiGuard,
        PublicVersionGuard,
        OpenApiDocuments,
        RegisterTraineeHandler,
        UpdateTraineeHandler,
        GetTraineeHandler,
        ListTraineesHandler,
        ...PLACEMENT_HANDLERS,
        ...DEGREE_HANDLERS,
        LifecycleHandler,
        TraineeHistoryHandler,
      ],
    };
  }
}
