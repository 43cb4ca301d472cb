import { userInfo } from 'node:os';
import { InvalidArgumentError, type Command } from 'commander';
import { Presets, SingleBar } from 'cli-progress';
import type { TraineeEnding } from '@app/trainees/read';
import { eraseTrainee } from '@app/trainees/write';
import { erasurePortsOf } from '@app/stores';
import { CliError, type CliContext } from '../cli-context';

/** Trainees read from the read model per page while the run looks for those to erase. */
const PAGE = 1000;

interface RetentionOptions {
  endedBefore: string;
  dryRun?: boolean;
  by?: string;
}

/**
 * `retention apply --ended-before <date> [--dry-run] [--by <name>]` (docs/operations.md
 * "Retention"): erases (as `trainee erase` does) every trainee whose course ended before the date:
 * awarded, withdrawn, or its ITT end date passed (`courseEndedOn`). The date must not be after
 * today (a course that ends later has not ended). `--dry-run` lists them and erases nothing. With a
 * progress bar on stderr and a report on stdout: how many were erased, and for each failure its
 * trainee id and why (exit 1 when any failed).
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
    .action(async (opts: RetentionOptions) => {
      const by = opts.by ?? userInfo().username;
      const failed = await ctx.withStores(async (stores) => {
        const due = await endedBefore(stores.readModel, opts.endedBefore);
        if (opts.dryRun) {
          for (const t of due) process.stdout.write(`${t.trainee_id}  ${t.ukprn}  ${t.state}  ended ${t.ended_on}\n`);
          process.stdout.write(`${due.length} trainees ended before ${opts.endedBefore}; nothing erased (--dry-run)\n`);
          return [];
        }
        const ports = erasurePortsOf({ dataDir: ctx.dataDir }, stores);
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
        const failures: string[] = [];
        for (const t of due) {
          const reason = `Retention policy: course ended ${t.ended_on}, before ${opts.endedBefore}`;
          try {
            await eraseTrainee(ports, t.trainee_id, reason, by);
          } catch (err) {
            failures.push(`${t.trainee_id}: ${err instanceof Error ? err.message : String(err)}`);
          }
          bar.increment();
        }
        bar.stop();
        process.stdout.write(
          `Erased ${due.length - failures.length} of ${due.length} trainees whose course ended before ${opts.endedBefore}\n`,
        );
        for (const f of failures) process.stdout.write(`  failed ${f}\n`);
        return failures;
      });
      if (failed.length > 0) throw new CliError(`${failed.length} trainees could not be erased (listed above); run the same command again`);
    });
}

/** Every trainee of the read model whose course ended before `cutoff`, in trainee-id order. */
async function endedBefore(
  readModel: { listEndings(after: string | null, limit: number): Promise<TraineeEnding[]> },
  cutoff: string,
): Promise<TraineeEnding[]> {
  const due: TraineeEnding[] = [];
  for (let after: string | null = null; ;) {
    const page = await readModel.listEndings(after, PAGE);
    for (const t of page) if (t.ended_on < cutoff) due.push(t);
    if (page.length < PAGE) return due;
    after = page[page.length - 1].trainee_id;
  }
}

/** A real calendar date `YYYY-MM-DD`, not after today (UTC). */
function parseCutoff(value: string): string {
  const date = new Date(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value)
    throw new InvalidArgumentError('not a date YYYY-MM-DD');
  if (value > new Date().toISOString().slice(0, 10)) throw new InvalidArgumentError('after today: a course that ends later has not ended');
  return value;
}
