import { Module } from '@nestjs/common';
import { UPLOADS_CONTROLLERS } from './trainee-uploads';
import { Uploads, UPLOAD_FILES_PROVIDER } from './uploads';

/** Uploads of new trainees and of recommendations (docs/operations.md "Adding trainees from a file"), with their ports and worker. */
@Module({ controllers: UPLOADS_CONTROLLERS, providers: [UPLOAD_FILES_PROVIDER, Uploads], exports: [Uploads] })
export class UploadsModule {}
