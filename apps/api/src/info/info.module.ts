import { Module } from '@nestjs/common';
import { InfoController } from './info.controller';

/** The versions served: GET /api/{version}/info (docs/spec/trainee-records-api.md "GET /info"). */
@Module({ controllers: [InfoController] })
export class InfoModule {}
