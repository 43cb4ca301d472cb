import type { Command } from 'commander';
import type { CliContext } from '../cli-context';
import { registerProjectionCommands } from './projections';

/**
 * Command groups beyond providers, tokens and schools, each in its own file under commands/
 * (projections, trainee history, events export/import), registered on the program.
 */
export function registerCommandGroups(program: Command, ctx: CliContext): void {
  registerProjectionCommands(program, ctx);
}
