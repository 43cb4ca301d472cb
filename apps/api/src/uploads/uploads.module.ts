import { Module } from '@nestjs/common';
import { TraineeUploadsController } from './trainee-uploads.controller';
import { Uploads } from './uploads';

/**
 * Adding trainees from a CSV file under /api/{version}/trainee-uploads (docs/operations.md "Adding
 * trainees from a file"): the controller, and the uploads' ports and background worker.
 */
@Module({ controllers: [TraineeUploadsController], providers: [Uploads] })
export class UploadsModule {}
