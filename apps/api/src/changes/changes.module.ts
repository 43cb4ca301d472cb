import { Module } from '@nestjs/common';
import { ListChangesController } from './list-changes.controller';
import { ListChangesHandler } from './list-changes.query';

/** The provider's change feed: GET /api/{version}/changes (docs/change-feed.md "Reading the feed"). */
@Module({ controllers: [ListChangesController], providers: [ListChangesHandler] })
export class ChangesModule {}
