import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';

/** Health and readiness of the API process: GET /healthz, /readyz (docs/operations.md "Health"). */
@Module({ controllers: [HealthController] })
export class HealthModule {}
