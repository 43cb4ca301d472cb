import { Module, type DynamicModule } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import type { AppConfig } from '@app/runtime/process';
import { ApiDocsModule } from './api-docs/api-docs.module';
import { AuditModule } from './audit/audit.module';
import { ChangesModule } from './changes/changes.module';
import { HealthModule } from './health/health.module';
import { InfoModule } from './info/info.module';
import { ReferenceDataModule } from './reference-data/reference-data.module';
import { SharedKernelModule } from './shared-kernel.module';
import { TraineesModule } from './trainees/trainees.module';
import { UploadsModule } from './uploads/uploads.module';
import { UploadsPageModule } from './uploads-page/uploads-page.module';

/**
 * The API's module, built for one configuration and logger: the `@nestjs/cqrs` buses, the shared
 * kernel (global: configuration, ports, guards; docs/DESIGN.md "The shared kernel") and one module
 * per area (docs/DESIGN.md "Where each endpoint lives"), then the uploads page. The areas are imported in
 * the order their routes are registered and appear in the OpenAPI documents.
 */
@Module({})
export class AppModule {
  /** The module for `config` and `logger`, as `createApp` builds the application from it. */
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CqrsModule.forRoot(),
        SharedKernelModule.forRoot(config, logger),
        HealthModule,
        InfoModule,
        ReferenceDataModule,
        ApiDocsModule,
        TraineesModule,
        ChangesModule,
        UploadsModule,
        AuditModule,
        UploadsPageModule,
      ],
    };
  }
}
