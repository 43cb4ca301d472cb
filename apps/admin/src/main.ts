import { Command, CommanderError } from 'commander';
import { UnknownToken } from '@app/providers/write';
import { StoreUnavailable } from '@app/stores';
import { AuditRefused } from '@app/audit';
import { CliError, cliContext } from './cli-context';
import { registerCommandGroups } from './commands';
import { ProviderCommandRejected } from '@app/providers/decider';
import { keepNewFilesPrivate } from '@app/runtime/process';
import { WebhookCommandRejected } from '@app/webhooks/decider';

/**
 * The operators' CLI (`npm run --silent admin -- <command>`): providers, API tokens and the schools
 * directory, working on the same stores as the API (`DATA_DIR`, or `EVENTSTORE_URL` /
 * `MONGODB_URL`) whether or not it runs. After each write it brings the read models up to date itself,
 * so a token issued here is accepted by a running API at once, and a revoked one refused.
 * Run as a program, every file it makes (exports, digests, backups, stores) is 0600 (umask 077).
 * Exit codes: 0 done, 1 refused (message on stderr), 2 usage error.
 */
export function buildCli(env: NodeJS.ProcessEnv = process.env): Command {
  const ctx = cliContext(env);
  const program = new Command('admin').description('Operate and audit the trainee records service').showHelpAfterError().exitOverride();

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
    if (
      err instanceof ProviderCommandRejected ||
      err instanceof WebhookCommandRejected ||
      err instanceof UnknownToken ||
      err instanceof StoreUnavailable ||
      err instanceof AuditRefused ||
      err instanceof CliError
    ) {
      process.stderr.write(`Error: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

if (require.main === module) {
  keepNewFilesPrivate();
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}
