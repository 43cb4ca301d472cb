import { InvalidArgumentError, Option, type Command } from 'commander';
import { loadTraineeHistory, parseInstant, traineeAsOf } from '@app/trainees/read';
import { historySourcesOf, type Stores } from '@app/composition';
import { writeHistoryReport, writeTimeline } from '@app/audit';
import { API_VERSIONS, type ApiVersion } from '@app/trainees/record';
import { contractFor } from '@app/trainees/contract';
import { CliError, type CliContext } from '../cli-context';
import { registerTraineeErasure } from './trainee-erasure';
import { parseFingerprint, trustedKey } from './audit-files';

const FORMATS = ['table', 'json', 'html'] as const;

interface HistoryOptions {
  asOf?: Date;
  apiVersion: ApiVersion;
  json?: boolean;
  format: (typeof FORMATS)[number];
  fingerprint?: string;
}

/**
 * `trainee history <trainee_id> [--as-of <instant>] [--api-version <version>] [--format table|json|html]` (docs/operations.md "Trainee
 * history"): replays the stream, writing nothing. The timeline as a table, JSON lines or the HTML report, streamed a chunk at a time;
 * with `--as-of`, the trainee then as GET answers it (not with html). Exit 1 for an unknown trainee, or one not yet existing then.
 */
export function registerTraineeHistoryCommands(program: Command, ctx: CliContext): void {
  const trainee = program.command('trainee').description('trainee records, for auditors');
  trainee
    .command('history')
    .description("a trainee's full timeline from the event log, or the trainee as it stood at an instant")
    .argument('<trainee_id>', 'the trainee id')
    .option('--as-of <instant>', 'ISO 8601 instant (e.g. 2026-01-05T10:00:00Z): print the trainee as it stood then', parseInstantOption)
    .addOption(
      new Option('--api-version <version>', 'the API version whose shape --as-of prints')
        .choices([...API_VERSIONS])
        .default(API_VERSIONS[API_VERSIONS.length - 1]),
    )
    .addOption(new Option('--format <format>', 'how to print the timeline').choices(FORMATS).default('table'))
    .addOption(new Option('--json', 'print the timeline as JSON lines (the same as --format json)').conflicts('format'))
    .option(
      '--fingerprint <hex>',
      "with --format html, the fingerprint of the key the digest must be signed by (default: this deployment's audit signing key)",
      parseFingerprint,
    )
    .action(async (traineeId: string, opts: HistoryOptions) => {
      const resolveId = (stores: Stores) => async (id: string) => (await stores.readModel.getTrainee(id))?.trainee_id ?? null;
      if (opts.fingerprint !== undefined && opts.format !== 'html') throw new CliError('--fingerprint is for --format html');
      if (opts.format === 'html') {
        if (opts.asOf) throw new CliError('--as-of prints the trainee as JSON; --format html is for the whole timeline');
        const sources = (stores: Stores) => historySourcesOf(stores);
        const options = { trustedKey: trustedKey(ctx, opts.fingerprint) };
        return ctx.withStores((stores) => writeHistoryReport(sources(stores), traineeId, process.stdout, options), { catchUp: false });
      }
      if (!opts.asOf) {
        const format = opts.json || opts.format === 'json' ? 'json' : 'table';
        const write = (stores: Stores) => writeTimeline(stores, traineeId, format, process.stdout, { resolveId: resolveId(stores) });
        await ctx.withStores(write, { catchUp: false });
        return;
      }
      const history = await ctx.withStores((stores) => loadTraineeHistory(stores.eventStore, traineeId, { resolveId: resolveId(stores) }), {
        catchUp: false,
      });
      if (!history) throw new CliError(`No trainee with id ${traineeId}`);
      const asOf = traineeAsOf(history.events, opts.asOf);
      if (!asOf) throw new CliError(`Trainee ${history.traineeId} did not exist yet at ${opts.asOf.toISOString()}`);
      process.stdout.write(`${JSON.stringify(contractFor(opts.apiVersion).output.serializeTrainee(asOf, { nested: true }), null, 2)}\n`);
    });
  registerTraineeErasure(trainee, ctx);
}

/** Commander's usage error (exit 2) for a bad instant. */
export function parseInstantOption(value: string): Date {
  const instant = parseInstant(value);
  if (!instant)
    throw new InvalidArgumentError('not an ISO 8601 instant (a date and a time with Z or an offset, e.g. 2026-01-05T10:00:00Z)');
  return instant;
}
