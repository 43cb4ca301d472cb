import { Module, type DynamicModule } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import { APP_CONFIG, processMetrics, type AppConfig } from '@app/runtime/process';
import { AuditDigestController } from './audit/audit-digest.controller';
import { AuditDigestHandler } from './audit/audit-digest.query';
import { ListChangesController } from './changes/list-changes.controller';
import { ListChangesHandler } from './changes/list-changes.query';
import { HealthController } from './health/health.controller';
import { InfoController } from './info/info.controller';
import { ApiAuthenticator, ApiGuard, PublicVersionGuard } from './auth/api.guard';
import { Idempotency } from './idempotency/idempotency';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { storeProviders } from './composition/stores.providers';
import { CachedTokens } from './composition/token-cache';
import { LOGGER, METRICS } from './composition/tokens';
import { MetricsListener } from './observability/metrics-listener';
import { TokenUse } from './auth/token-use';
import { VersionRegistry } from './composition/versions';
import { OpenApiController } from './api-docs/openapi.controller';
import { OpenApiDocuments } from './api-docs/openapi-documents';
import { ReferenceDataController } from './reference-data/reference-data.controller';
import { AddDegreeHandler, RemoveDegreeHandler, UpdateDegreeHandler } from './trainees/degrees/degree.commands';
import { GetDegreeHandler, ListDegreesHandler } from './trainees/degrees/degree.queries';
import { DegreesController } from './trainees/degrees/degrees.controller';
import { AddPlacementHandler, RemovePlacementHandler, UpdatePlacementHandler } from './trainees/placements/placement.commands';
import { GetPlacementHandler, ListPlacementsHandler } from './trainees/placements/placement.queries';
import { PlacementsController } from './trainees/placements/placements.controller';
import { DeferTraineeController } from './trainees/defer-trainee/defer-trainee.controller';
import { DeferTraineeHandler } from './trainees/defer-trainee/defer-trainee.handler';
import { GetTraineeController } from './trainees/get-trainee/get-trainee.controller';
import { GetTraineeHandler } from './trainees/get-trainee/get-trainee.query';
import { TraineeHistoryController } from './trainees/history/trainee-history.controller';
import { TraineeHistoryHandler } from './trainees/history/trainee-history.query';
import { ListTraineesController } from './trainees/list-trainees/list-trainees.controller';
import { ListTraineesHandler } from './trainees/list-trainees/list-trainees.query';
import { ListTraineesAsOfHandler } from './trainees/list-trainees/list-trainees-as-of.query';
import { RecommendForAwardController } from './trainees/recommend-for-award/recommend-for-award.controller';
import { RecommendForAwardHandler } from './trainees/recommend-for-award/recommend-for-award.handler';
import { RegisterTraineeController } from './trainees/register-trainee/register-trainee.controller';
import { RegisterTraineeHandler } from './trainees/register-trainee/register-trainee.handler';
import { UpdateTraineeController } from './trainees/update-trainee/update-trainee.controller';
import { UpdateTraineeHandler } from './trainees/update-trainee/update-trainee.handler';
import { WithdrawTraineeController } from './trainees/withdraw-trainee/withdraw-trainee.controller';
import { WithdrawTraineeHandler } from './trainees/withdraw-trainee/withdraw-trainee.handler';

/**
 * The API's module, built for one configuration and logger: one controller and handler per slice
 * (docs/DESIGN.md "Where each endpoint lives"), the shared kernel's ports under their
 * injection tokens, guards and the OpenAPI documents.
 */
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
        DeferTraineeController,
        WithdrawTraineeController,
        RecommendForAwardController,
        TraineeHistoryController,
        ListChangesController,
        AuditDigestController,
      ],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: LOGGER, useValue: logger },
        // The API's families, and the projector's when it projects here (docs/observability.md "Metrics").
        { provide: METRICS, useValue: processMetrics(config, config.projector === 'in-process' ? ['api', 'projector'] : ['api'], logger) },
        MetricsListener,
        { provide: VersionRegistry, useValue: new VersionRegistry(config) },
        ...storeProviders(),
        Idempotency,
        IdempotencyInterceptor,
        TokenUse,
        CachedTokens,
        ApiAuthenticator,
        ApiGuard,
        PublicVersionGuard,
        OpenApiDocuments,
        ListChangesHandler,
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
        AuditDigestHandler,
      ],
    };
  }
}
