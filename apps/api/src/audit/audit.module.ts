import { Module } from '@nestjs/common';
import { AuditDigestController } from './audit-digest.controller';
import { AuditDigestHandler } from './audit-digest.query';

/** The latest signed digest of the log, for auditors: GET /api/{version}/audit/digest (docs/operations.md "Signed digests"). */
@Module({ controllers: [AuditDigestController], providers: [AuditDigestHandler] })
export class AuditModule {}
