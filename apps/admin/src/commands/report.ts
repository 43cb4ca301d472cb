import { InvalidArgumentError, Option, type Command } from 'commander';
import { CliError, type CliContext } from '../cli-context';
import { writeCensus, type CensusFormat } from '../census/census';
import { parseInstantOption } from './trainee-history';

interface CensusOptions {
  ukprn: string;
  format: CensusFormat;
}

/**
 * `report as-of <instant> --ukprn <ukprn> [--format csv|json]`: the census return of one provider,
 * for auditors of funding (docs/operations.md "The list at an instant and the census report"): every trainee registered for the
 * provider and not erased that existed at the instant, as it stood then, one row each (the columns:
 * `CENSUS_COLUMNS`), written to stdout as it is read. Reads the event log (each of the provider's
 * trainees' streams) and the trainee read model (which trainees are the provider's); writes nothing
 * but the read models' catch-up. Exit 2 (usage): a bad instant, UKPRN or format; exit 1: an instant in the future, an unknown provider.
 */
export function registerReportCommands(program: Command, ctx: CliContext): void {
  const report = program.command('report').description('reports for auditors');
  report
    .command('as-of')
    .description("a provider's census return: its trainees as they stood at an instant, one row each")
    .argument('<instant>', 'ISO 8601 instant (e.g. 2026-10-01T00:00:00Z)', parseInstantOption)
    .requiredOption('--ukprn <ukprn>', "the provider's UKPRN (8 digits)", parseUkprn)
    .addOption(new Option('--format <format>', 'the output').choices(['csv', 'json']).default('csv'))
    .action(async (instant: Date, opts: CensusOptions) => {
      if (instant.getTime() > Date.now()) throw new CliError(`${instant.toISOString()} is in the future`);
      await ctx.withStores(async (stores) => {
        if (!(await stores.readModel.getProvider(opts.ukprn))) throw new CliError(`No provider with UKPRN ${opts.ukprn}`);
        await writeCensus(stores, opts.ukprn, instant, opts.format, process.stdout);
      });
    });
}

function parseUkprn(value: string): string {
  if (!/^\d{8}$/.test(value)) throw new InvalidArgumentError('a UKPRN is 8 digits');
  return value;
}
