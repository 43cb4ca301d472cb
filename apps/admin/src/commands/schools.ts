import type { Command } from 'commander';
import { Presets, SingleBar } from 'cli-progress';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { importSchoolsCsv } from '@app/schools';
import { CliError, type CliContext } from '../cli-context';

/**
 * `schools import <file.csv>`: loads the public schools register export into the schools directory
 * placements link to by URN (docs/reference/API-FACTS.md §10.3), streamed, with a progress bar on a terminal.
 */
export function registerSchoolCommands(program: Command, ctx: CliContext): void {
  const schools = program.command('schools').description('the schools directory placements link to by URN');
  schools
    .command('import')
    .description('load the public schools register CSV export (columns URN, EstablishmentName, Town, Postcode), streamed')
    .argument('<file.csv>', 'the CSV file')
    .action(async (file: string) => {
      if (!existsSync(file)) throw new CliError(`No such file: ${file}`);
      const total = statSync(file).size;
      const input = createReadStream(file);
      const bar = process.stderr.isTTY
        ? new SingleBar(
            { format: 'schools {bar} {percentage}% | {rows} rows | ETA {eta}s', stream: process.stderr },
            Presets.shades_classic,
          )
        : null;
      let bytes = 0;
      input.on('data', (chunk) => (bytes += chunk.length));
      bar?.start(total, 0, { rows: 0 });
      const result = await ctx.withStores(async ({ schools: directory }) => {
        try {
          return await importSchoolsCsv(input, directory, { onProgress: (rows) => bar?.update(bytes, { rows }) });
        } catch (err) {
          throw new CliError(err instanceof Error ? err.message : String(err));
        }
      });
      bar?.update(total);
      bar?.stop();
      process.stdout.write(`Imported ${result.imported} schools; skipped ${result.skipped} rows without a six-digit URN or a name\n`);
    });
}
