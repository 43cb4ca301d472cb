import { Command, CommanderError } from 'commander';
import { UnknownToken } from '@app/providers/write';
import { setLockWait, StoreUnavailable } from '@app/composition';
import { AuditRefused } from '@app/audit';
import { KeyringBusy, KeyringError, RetirementRefused } from '@app/keys';
import { ADMIN_BUSY_WAIT_MS, BusyWait, busyWaitOf, isStoreBusy, StoreBusy } from './busy-stores';
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

/**
 * Runs the CLI on `argv` and returns the exit code. Every SQLite connection it opens waits for a
 * busy store up to `ADMIN_BUSY_WAIT_MS` (docs/operations.md "The admin CLI"). What stops a command
 * is said in one sentence on stderr, never a stack trace ({@link failureLine}), except with
 * `LOG_LEVEL` debug or trace, where an unexpected error's stack follows its sentence.
 */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let waitMs: number;
  try {
    waitMs = busyWaitOf(env);
  } catch (err) {
    process.stderr.write(`Error: ${(err as Error).message}\n`);
    return 1;
  }
  setLockWait(waitMs);
  try {
    await buildCli(env).parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    process.stderr.write(`${failureLine(err, env, waitMs)}\n`);
    return 1;
  }
}

/**
 * What the CLI says of the error that stopped a command: `Error: ` and the message of a refusal
 * (a command rejected, a store unavailable, a bad argument); for a store that stayed busy, the
 * sentence of {@link StoreBusy} naming the file still busy; for any other error, a sentence
 * naming its class and code (never its message, which may quote data), and how to see more.
 */
export function failureLine(err: unknown, env: NodeJS.ProcessEnv, waitMs: number): string {
  if (isStoreBusy(err)) return `Error: ${new BusyWait(waitMs, env.DATA_DIR || './data', setLockWait).gaveUp().message}`;
  if (
    err instanceof ProviderCommandRejected ||
    err instanceof WebhookCommandRejected ||
    err instanceof UnknownToken ||
    err instanceof StoreUnavailable ||
    err instanceof AuditRefused ||
    err instanceof CliError ||
    err instanceof StoreBusy ||
    err instanceof KeyringError ||
    err instanceof KeyringBusy ||
    err instanceof RetirementRefused
  ) {
    return `Error: ${err.message}`;
  }
  const name = err instanceof Error ? err.name : typeof err;
  const code = (err as { code?: unknown } | null)?.code;
  const line = `Error: the command stopped on an unexpected ${name}${typeof code === 'string' ? ` (${code.slice(0, 40)})` : ''}; run it again with LOG_LEVEL=debug to see its message and stack trace.`;
  const debug = ['debug', 'trace'].includes((env.LOG_LEVEL ?? '').trim().toLowerCase());
  return debug ? `${line}\n${err instanceof Error ? err.stack : String(err)}` : line;
}

if (require.main === module) {
  keepNewFilesPrivate();
  void runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${failureLine(err, process.env, ADMIN_BUSY_WAIT_MS)}\n`);
      process.exit(1);
    },
  );
}
