import { userInfo } from 'node:os';
import { InvalidArgumentError, type Command } from 'commander';
import { Presets, SingleBar } from 'cli-progress';
import { applyRetention, cutoffProblem, endedBefore } from '@app/personal-data/erasure';
import { erasurePortsOf } from '@app/composition';
import { CliError, type CliContext } from '../cli-context';
import { erasureLedger } from './erasure-ledger';

interface RetentionOptions {
  endedBefore: string;
  dryRun?: boolean;
  by?: string;
  ledger?: string;
}

/**
 * `retention apply --ended-before <date> [--dry-run] [--by <name>]` (docs/operations.md
 * "Retention"): erases (as `trainee erase` does) every trainee whose course ended before the date:
 * awarded, withdrawn, or its ITT end date passed (`courseEndedOn`; the policy is
 * libs/personal-data/erasure's `endedBefore` and `applyRetention`). The date must not be after
 * today (a course that ends later has not ended). `--dry-run` lists them and erases nothing. With a
 * progress bar on stderr and a report on stdout: how many were erased, and for each failure its
 * trainee id and why (exit 1 when any failed). Each erasure is recorded in the erasure ledger, as
 * `trainee erase` records it (`--ledger`, or `$BACKUP_DIR/erasure-ledger.jsonl`).
 */
export function registerRetentionCommands(program: Command, ctx: CliContext): void {
  program
    .command('retention')
    .description('the retention policy: erase the trainees whose course ended long ago')
    .command('apply')
    .description('erase every trainee whose course ended (awarded, withdrawn, or its end date passed) before a date')
    .requiredOption('--ended-before <date>', 'YYYY-MM-DD, not after today (the README gives the default policy: 7 years ago)', parseCutoff)
    .option('--dry-run', 'list the trainees it would erase, and erase nothing')
    .option('--by <name>', 'who applies the policy (default: this user)')
    .option('--ledger <file>', 'the erasure ledger to record each erasure in (default: $BACKUP_DIR/erasure-ledger.jsonl)')
    .action(async (opts: RetentionOptions) => {
      const by = opts.by ?? userInfo().username;
      const record = opts.dryRun ? undefined : erasureLedger(ctx, opts.ledger, 'retention apply');
      const failed = await ctx.withStores(async (stores) => {
        const due = await endedBefore(stores.readModel, opts.endedBefore);
        if (opts.dryRun) {
          for (const t of due) process.stdout.write(`${t.trainee_id}  ${t.ukprn}  ${t.state}  ended ${t.ended_on}\n`);
          process.stdout.write(`${due.length} trainees ended before ${opts.endedBefore}; nothing erased (--dry-run)\n`);
          return [];
        }
        const ports = erasurePortsOf(stores, record);
        const bar = new SingleBar(
          {
            format: 'erasing {bar} {value}/{total} trainees | ETA {eta_formatted}',
            stream: process.stderr,
            noTTYOutput: !process.stderr.isTTY,
            notTTYSchedule: 2000,
          },
          Presets.shades_classic,
        );
        bar.start(due.length, 0);
        const run = await applyRetention(ports, due, opts.endedBefore, by, () => bar.increment());
        bar.stop();
        process.stdout.write(`Erased ${run.erased} of ${due.length} trainees whose course ended before ${opts.endedBefore}\n`);
        for (const f of run.failures) process.stdout.write(`  failed ${f}\n`);
        return run.failures;
      });
      if (failed.length > 0) throw new CliError(`${failed.length} trainees could not be erased (listed above); run the same command again`);
    });
}

/** The cut-off argument (`cutoffProblem`: a real date, not after today in UTC), or commander's usage error (exit 2). */
function parseCutoff(value: string): string {
  const problem = cutoffProblem(value, new Date().toISOString().slice(0, 10));
  if (problem !== null) throw new InvalidArgumentError(problem);
  return value;
}
