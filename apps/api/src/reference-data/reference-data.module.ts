import { Module } from '@nestjs/common';
import { ReferenceDataController } from './reference-data.controller';

/** The coded value lists: GET /api/{version}/reference-data (docs/reference/API-FACTS.md §17). */
@Module({ controllers: [ReferenceDataController] })
export class ReferenceDataModule {}
