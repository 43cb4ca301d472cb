import { userInfo } from 'node:os';
import type { Command } from 'commander';
import { NotFound } from '@app/trainees/decider';
import { ErasureUnfinished } from '@app/personal-data';
import { eraseTrainee, erasureSummary } from '@app/personal-data/erasure';
import { erasurePortsOf } from '@app/composition';
import { CliError, type CliContext } from '../cli-context';
import { erasureLedger } from './erasure-ledger';

/**
 * `trainee erase <trainee_id> --reason <text> [--by <name>]` (docs/operations.md "Erasing a trainee"): recorded in the erasure ledger
 * first, so a restore erases it again, then `eraseTrainee`. Exit 1 for an unknown trainee, a bad reason, or a forgetting a store could
 * not finish (running it again finishes it).
 */
export function registerTraineeErasure(trainee: Command, ctx: CliContext): void {
  trainee
    .command('erase')
    .description('erase a trainee: its personal data can never be read again (on request, or under the retention policy)')
    .argument('<trainee_id>', 'the trainee id')
    .requiredOption('--reason <text>', 'why (a request reference, the policy applied): kept in the clear, so never who the trainee is')
    .option('--by <name>', 'who erases it (default: this user)')
    .option('--ledger <file>', 'the erasure ledger to record it in (default: $BACKUP_DIR/erasure-ledger.jsonl)')
    .action(async (traineeId: string, opts: { reason: string; by?: string; ledger?: string }) => {
      const by = opts.by ?? userInfo().username;
      const record = erasureLedger(ctx, opts.ledger, 'trainee erase');
      // Safe to rerun after a busy store: every step of an erasure is; the ledger may get the erasure twice.
      const erasure = await ctx.withStores(
        async (stores) => {
          try {
            return await eraseTrainee(erasurePortsOf(stores, record), traineeId, opts.reason, by);
          } catch (err) {
            if (err instanceof NotFound) throw new CliError(`No trainee with id ${traineeId}`);
            if (err instanceof RangeError || err instanceof ErasureUnfinished) throw new CliError(err.message);
            throw err;
          }
        },
        { rerun: true },
      );
      process.stdout.write(`${erasureSummary(erasure)}\n`);
    });
}
