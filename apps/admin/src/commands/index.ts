import type { Command } from 'commander';
import type { CliContext } from '../cli-context';
import { registerEventCommands } from './events';
import { registerProjectionCommands } from './projections';
import { registerTraineeHistoryCommands } from './trainee-history';

/**
 * Command groups beyond providers, tokens and schools, each in its own file under commands/
 * (projections, trainee history, events export/import), registered on the program.
 */
export function registerCommandGroups(program: Command, ctx: CliContext): void {
  registerProjectionCommands(program, ctx);
  registerTraineeHistoryCommands(program, ctx);
  registerEventCommands(program, ctx);
}
