import type { Command } from 'commander';
import type { CliContext } from '../cli-context';
import { registerAuditCommands } from './audit';
import { registerBackupCommands } from './backup';
import { registerEventCommands } from './events';
import { registerGuardCommands } from './guards';
import { registerKeyCommands } from './keys';
import { registerProjectionCommands } from './projections';
import { registerProviderCommands } from './providers';
import { registerReportCommands } from './report';
import { registerRetentionCommands } from './retention';
import { registerSchoolCommands } from './schools';
import { registerTraineeHistoryCommands } from './trainee-history';
import { registerWebhookCommands } from './webhooks';

/**
 * The command groups, each in its own file under commands/ (providers and tokens, schools,
 * projections, trainee history and erasure, retention, events export/import, the guards of older logs, webhooks, the audit of the
 * history, the census report, backups), registered on the program.
 */
export function registerCommandGroups(program: Command, ctx: CliContext): void {
  registerProviderCommands(program, ctx);
  registerSchoolCommands(program, ctx);
  registerProjectionCommands(program, ctx);
  registerTraineeHistoryCommands(program, ctx);
  registerRetentionCommands(program, ctx);
  registerEventCommands(program, ctx);
  registerGuardCommands(program, ctx);
  registerWebhookCommands(program, ctx);
  registerAuditCommands(program, ctx);
  registerReportCommands(program, ctx);
  registerBackupCommands(program, ctx);
  registerKeyCommands(program, ctx);
}
