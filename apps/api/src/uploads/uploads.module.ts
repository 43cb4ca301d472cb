import { Module } from '@nestjs/common';
import { UPLOADS_CONTROLLERS } from './trainee-uploads';
import { Uploads, UPLOAD_FILES_PROVIDER } from './uploads';

/**
 * Adding trainees from a CSV file under /api/{version}/trainee-uploads (docs/operations.md "Adding
 * trainees from a file"): new trainees under /api/{version}/trainee-uploads, recommendations
 * under /api/{version}/recommendation-uploads, and the uploads' ports and background worker.
 */
@Module({ controllers: UPLOADS_CONTROLLERS, providers: [UPLOAD_FILES_PROVIDER, Uploads] })
export class UploadsModule {}
