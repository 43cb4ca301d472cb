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
 * The operators' CLI (`npm run --silent admin -- <command>`) on the API's stores, running or not; after each write it catches the read
 * models up, so a running API sees the change at once. Files it makes are 0600. Exit: 0 done, 1 refused, 2 usage error.
 */
export function buildCli(env: NodeJS.ProcessEnv = process.env): Command {
  const ctx = cliContext(env);
  const program = new Command('admin').description('Operate and audit the trainee records service').showHelpAfterError().exitOverride();

  registerCommandGroups(program, ctx);
  return program;
}

/** The exit code. What stops a command is one sentence on stderr ({@link failureLine}); with `LOG_LEVEL` debug or trace, a stack too. */
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
 * `Error: ` and a refusal's message; {@link StoreBusy}'s sentence; for any other error its class and code (never its message, which
 * may quote data) and how to see more.
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
