import { userInfo } from 'node:os';
import type { Command } from 'commander';
import { NotFound } from '@app/trainees/decider';
import { ErasureUnfinished } from '@app/personal-data';
import { eraseTrainee, erasureSummary } from '@app/personal-data/erasure';
import { erasurePortsOf } from '@app/composition';
import { CliError, type CliContext } from '../cli-context';
import { erasureLedger } from './erasure-ledger';

/**
 * `trainee erase <trainee_id> --reason <text> [--by <name>]` (docs/operations.md "Erasing a
 * trainee"; docs/DESIGN.md "Personal data"; `eraseTrainee`, libs/personal-data/erasure): appends
 * the erasure (why, by whom, when), destroys the trainee's data key, and forgets what the read
 * models and the kept idempotent answers hold of it.
 * The API then answers 404 for the trainee, its placements, degrees and history, and leaves it out
 * of lists; `trainee history` still shows every event, with `[erased]` for each personal value.
 * Exit 1 for an unknown trainee or a bad reason, and when a reader of the key store held its WAL
 * too long for the destroyed key's copy there to be cleared (it says so); running it again on an erased trainee finishes
 * the forgetting and says so. The erasure is recorded in the erasure ledger first (`--ledger`, or
 * `$BACKUP_DIR/erasure-ledger.jsonl`; docs/operations.md "Backups and restore"), so a restore of
 * an earlier backup erases the trainee again.
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
      // Run again after a busy store: every step of an erasure is safe to repeat (`eraseTrainee`), and a
      // run that finds the trainee erased finishes the forgetting; the ledger may get the erasure twice.
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
