import { Module } from '@nestjs/common';
import { UploadsModule } from '../uploads/uploads.module';
import { UploadsPage } from './uploads-page';

/**
 * The uploads page for providers' staff (docs/DESIGN.md "The uploads page"): a second front door over the same upload operations as
 * the API's `trainee-uploads` endpoints, with its sessions; `createApp` serves it under `/uploads`.
 */
@Module({ imports: [UploadsModule], providers: [UploadsPage], exports: [UploadsPage] })
export class UploadsPageModule {}
