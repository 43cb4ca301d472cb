import type { Command } from 'commander';
import { embeddedLog, storeConfigOf } from '@app/composition';
import { CliError, type CliContext } from '../cli-context';

/**
 * `guards forget` (docs/operations.md "Forgetting the guard streams of an older log"; docs/DESIGN.md
 * property 3): deletes the duplicate guard streams an older build wrote to the embedded log, in
 * place (`forgetGuardStreams`): their names are hashes of a trainee's provider, date of birth, route
 * and last name, and their claims name the trainee, which an erasure cannot otherwise reach. New
 * creates never read them (the key store's reservations took their place). Prints what was
 * deleted; exit 1 on EventStoreDB (not offered there), without a log, or when a reader held a WAL
 * so that the deleted pages may still be in it (run it again).
 */
export function registerGuardCommands(program: Command, ctx: CliContext): void {
  const guards = program.command('guards').description("the duplicate rule's guards");
  guards
    .command('forget')
    .description('delete the duplicate guard streams of an older log from the embedded event log, in place')
    .action(() => {
      const log = embeddedLog(storeConfigOf(ctx.env));
      if (!log) throw new CliError('guards forget works on the embedded event log only (EVENTSTORE_URL is set)');
      let done;
      try {
        done = log.forgetGuardStreams();
      } catch (err) {
        throw new CliError(err instanceof Error ? err.message : String(err));
      }
      process.stdout.write(
        `Deleted ${done.streams} guard streams (${done.events} events) from the log and ${done.keptHeads} of their heads from the kept digest tree\n`,
      );
      if (done.walHeld.length > 0)
        throw new CliError(`a reader held the WAL of ${done.walHeld.join(' and ')}: run guards forget again to truncate it`);
    });
}
