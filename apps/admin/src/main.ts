import { Command, CommanderError } from 'commander';
import { ProviderOperations, UnknownToken } from '@app/application';
import { StoreUnavailable } from '@app/platform';
import { CliError, cliContext } from './cli-context';
import { registerCommandGroups } from './commands';
import { ProviderCommandRejected } from '@app/domain';
import { importSchoolsCsv, type ReadModelStore, type SchoolDirectory } from '@app/read-model';
import { SingleBar, Presets } from 'cli-progress';
import { createReadStream, existsSync, statSync } from 'node:fs';

/**
 * The operators' CLI (`npm run --silent admin -- <command>`): providers, API tokens and the schools
 * directory, working on the same stores as the API (`DATA_DIR`, or `EVENTSTORE_URL` /
 * `MONGODB_URL`) whether or not it runs. After each write it brings the read models up to date itself,
 * so a token issued here is accepted by a running API at once, and a revoked one refused.
 * Exit codes: 0 done, 1 refused (message on stderr), 2 usage error.
 */
export function buildCli(env: NodeJS.ProcessEnv = process.env): Command {
  const ctx = cliContext(env);
  const { environment } = ctx;
  const withStores = <T>(fn: (ops: ProviderOperations, readModel: ReadModelStore, schools: SchoolDirectory) => Promise<T>) =>
    ctx.withStores((stores, ops) => fn(ops, stores.readModel, stores.schools));

  const program = new Command('admin')
    .description('Operate and audit the trainee records service')
    .showHelpAfterError()
    .exitOverride();

  const provider = program.command('provider').description('providers (training organisations)');
  provider
    .command('add')
    .description('register a provider')
    .requiredOption('--ukprn <ukprn>', "the provider's 8-digit UKPRN")
    .requiredOption('--name <name>', "the provider's name")
    .action(async (opts: { ukprn: string; name: string }) => {
      await withStores((ops) => ops.addProvider(opts.ukprn, opts.name));
      process.stdout.write(`Provider ${opts.ukprn} registered: ${opts.name.trim()}\n`);
    });
  provider
    .command('list')
    .description('list providers')
    .action(async () => {
      const providers = await withStores((_ops, rm) => rm.listProviders());
      for (const p of providers) process.stdout.write(`${p.ukprn}\t${p.name}\t${p.created_at}\n`);
    });

  const token = program.command('token').description('API tokens');
  token
    .command('issue')
    .description('issue a token for a provider; prints the token, alone, as the last line')
    .requiredOption('--ukprn <ukprn>', "the provider's UKPRN")
    .action(async (opts: { ukprn: string }) => {
      const issued = await withStores((ops) => ops.issueToken(opts.ukprn, environment));
      process.stdout.write(`Token ${issued.token_id} issued for provider ${issued.ukprn}; it is shown once:\n${issued.token}\n`);
    });
  token
    .command('revoke')
    .description('revoke a token by id')
    .requiredOption('--token-id <id>', 'the token id (see token list)')
    .action(async (opts: { tokenId: string }) => {
      const { ukprn } = await withStores((ops) => ops.revokeToken(opts.tokenId));
      process.stdout.write(`Token ${opts.tokenId} of provider ${ukprn} revoked\n`);
    });
  token
    .command('list')
    .description("list a provider's tokens (never the tokens themselves)")
    .requiredOption('--ukprn <ukprn>', "the provider's UKPRN")
    .action(async (opts: { ukprn: string }) => {
      const tokens = await withStores(async (_ops, rm) => {
        if (!(await rm.getProvider(opts.ukprn))) throw new ProviderCommandRejected(`No provider with UKPRN ${opts.ukprn}`);
        return rm.listTokens(opts.ukprn);
      });
      process.stdout.write('token_id\tstatus\tissued_at\trevoked_at\n');
      for (const t of tokens) process.stdout.write(`${t.token_id}\t${t.status}\t${t.issued_at}\t${t.revoked_at ?? ''}\n`);
    });
  const schools = program.command('schools').description('the schools directory placements link to by URN');
  schools
    .command('import')
    .description('load the public schools register CSV export (columns URN, EstablishmentName, Town, Postcode), streamed')
    .argument('<file.csv>', 'the CSV file')
    .action(async (file: string) => {
      if (!existsSync(file)) throw new CliError(`No such file: ${file}`);
      const total = statSync(file).size;
      const input = createReadStream(file);
      const bar = process.stderr.isTTY ? new SingleBar({ format: 'schools {bar} {percentage}% | {rows} rows | ETA {eta}s', stream: process.stderr }, Presets.shades_classic) : null;
      let bytes = 0;
      input.on('data', (chunk) => (bytes += chunk.length));
      bar?.start(total, 0, { rows: 0 });
      const result = await withStores(async (_ops, _rm, directory) => {
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
  registerCommandGroups(program, ctx);
  return program;
}

/** Runs the CLI on `argv` and returns the exit code. */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  try {
    await buildCli(env).parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (err instanceof ProviderCommandRejected || err instanceof UnknownToken || err instanceof StoreUnavailable || err instanceof CliError) {
      process.stderr.write(`Error: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

if (require.main === module) {
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}
