import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import {
  BackupRefused,
  createBackup,
  LEDGER_FILE,
  ledgerIn,
  ledgerKey,
  LedgerUnreadable,
  reapplyErasures,
  readLedger,
  restoreFiles,
  verificationSummary,
  verifyBackup,
  type LedgerEntry,
} from '@app/stores/backup';
import { erasurePortsOf } from '@app/stores';
import { ConfigError, loadServiceKey, SANDBOX_KEY_FILE, type ServiceKeyring } from '@app/runtime/process';
import { CliError, type CliContext } from '../cli-context';
import { ownSigningKey, progressBar, trustedKey } from './audit-files';

/**
 * The backups of the embedded stores (docs/operations.md "Backups and restore"; libs/stores/backup):
 *
 * - `backup create --output <dir>` copies the stores of `DATA_DIR` online, while the service runs
 *   and writes go on (`createBackup`), with a progress bar on stderr and one line on stdout: the
 *   log's position it reaches, its events and streams, the files. Exit 1 when the log's copy holds
 *   chain faults (the backup is written, and names them), or `<dir>` is not empty.
 * - `backup verify <dir>` checks a backup (`verifyBackup`): one line on stdout when it holds; else
 *   each problem on stderr, exit 1.
 * - `backup restore <dir> [--ledger <file>]` restores it into an empty `DATA_DIR`
 *   (`restoreFiles`), re-applies every erasure of the ledger (`reapplyErasures`), then projects the
 *   read models again. Exit 1 for a data dir that is not empty or a backup that does not verify.
 *
 * Each needs the service key the backup was made under (`DATA_KEY_FILE`, or the sandbox's
 * `<DATA_DIR>/data-key`); verify and restore never make one. Only the embedded stores are backed up
 * here: with `EVENTSTORE_URL` or `MONGODB_URL` set, each refuses (exit 1) and names the section.
 */
export function registerBackupCommands(program: Command, ctx: CliContext): void {
  const backup = program.command('backup').description('online backups of the embedded stores: create, verify, restore');
  backup
    .command('create')
    .description('copy the log, the key store and the stores the log cannot rebuild, online, into a new directory')
    .requiredOption('--output <dir>', 'a new or empty directory (made 0700)')
    .action((opts: { output: string }) => createCommand(opts.output, ctx));
  backup
    .command('verify')
    .description(
      "check a backup: its manifest, every file's SHA-256, every chain, every sealed event against its keys; exit 1 on any problem",
    )
    .argument('<dir>', 'the backup')
    .action((dir: string) => verifyCommand(dir, ctx));
  backup
    .command('restore')
    .description('restore a backup into an empty DATA_DIR, erase again every trainee the erasure ledger names, rebuild the read models')
    .argument('<dir>', 'the backup')
    .option('--ledger <file>', `the erasure ledger (default: $BACKUP_DIR/${LEDGER_FILE}, else the one beside the backup)`)
    .action((dir: string, opts: { ledger?: string }) => restoreCommand(dir, opts.ledger, ctx));
}

/** Refuses the production stores: their backups are their own tools' (docs/operations.md "Backups and restore"). */
function embeddedOnly(ctx: CliContext): void {
  if (ctx.env.EVENTSTORE_URL || ctx.env.MONGODB_URL)
    throw new CliError(
      'backup works on the embedded stores (DATA_DIR); back up EventStoreDB and MongoDB as docs/operations.md "Backups and restore" says',
    );
}

/** The service key as it is, never made: `DATA_KEY_FILE`, else the sandbox's `<DATA_DIR>/data-key`. */
function existingServiceKey(ctx: CliContext): ServiceKeyring {
  const dataKeyFile = ctx.env.DATA_KEY_FILE?.trim() || null;
  if (dataKeyFile === null && !existsSync(join(ctx.dataDir, SANDBOX_KEY_FILE)))
    throw new CliError(
      `the service key the backup was made under is needed: set DATA_KEY_FILE (or put the sandbox's ${SANDBOX_KEY_FILE} in DATA_DIR)`,
    );
  try {
    return loadServiceKey({ dataDir: ctx.dataDir, dataKeyFile }).keyring;
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.message);
    throw err;
  }
}

async function createCommand(output: string, ctx: CliContext): Promise<void> {
  embeddedOnly(ctx);
  // The copy's bar in MB (made at its first report, which knows the total), then the check's in events.
  const bars: { copying: ReturnType<typeof progressBar> | null; checking: ReturnType<typeof progressBar> | null } = {
    copying: null,
    checking: null,
  };
  const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;
  try {
    const made = await createBackup(ctx.dataDir, output, {
      serviceKey: ctx.serviceKey(),
      signingKey: ownSigningKey(ctx),
      onProgress: (stage, done, total) => {
        if (stage === 'copying') return (bars.copying ??= progressBar('copying', mb(total), 'MB')).update(mb(done));
        bars.copying?.stop();
        bars.copying = null;
        (bars.checking ??= progressBar('checking the copy', 0)).update(done);
      },
    });
    bars.copying?.stop();
    bars.checking?.stop();
    bars.copying = bars.checking = null;
    const { log, files } = made.manifest;
    const bytes = files.reduce((sum, f) => sum + f.bytes, 0);
    process.stdout.write(
      `backup ${output}: position ${log.position}, ${log.events} events in ${log.streams} streams; ` +
        `${files.length} files, ${(bytes / 1e6).toFixed(1)} MB${made.manifest.digest ? '; heads signed' : ''}\n`,
    );
    for (const f of made.faults) process.stdout.write(`events.sqlite: ${f}\n`);
    if (made.faults.length > 0)
      throw new CliError(`the log's copy does not verify: ${made.faults.length} fault(s), as the log's (admin audit verify)`);
  } catch (err) {
    bars.copying?.stop();
    bars.checking?.stop();
    if (err instanceof BackupRefused) throw new CliError(err.message);
    throw err;
  }
}

async function verifyCommand(dir: string, ctx: CliContext): Promise<void> {
  const serviceKey = existingServiceKey(ctx);
  const bar = progressBar('verifying', 0);
  const verified = await verifyBackup(dir, serviceKey, (events) => bar.update(events), trustedKey(ctx, undefined)).finally(() =>
    bar.stop(),
  );
  if (verified.problems.length > 0) {
    for (const p of verified.problems) process.stderr.write(`${p}\n`);
    throw new CliError(`the backup in ${dir} does not verify: ${verified.problems.length} problem(s)`);
  }
  process.stdout.write(`${verificationSummary(dir, verified)}\n`);
}

async function restoreCommand(dir: string, ledgerOption: string | undefined, ctx: CliContext): Promise<void> {
  embeddedOnly(ctx);
  const serviceKey = existingServiceKey(ctx);
  const ledgerFile = ledgerOf(dir, ledgerOption, ctx);
  let ledger: LedgerEntry[];
  try {
    const read = ledgerFile ? readLedger(ledgerFile, ledgerKey(serviceKey)) : null;
    if (read && read.problems.length > 0)
      throw new CliError(`the erasure ledger ${ledgerFile} does not hold; nothing was restored:\n  ${read.problems.join('\n  ')}`);
    ledger = read?.entries ?? [];
  } catch (err) {
    if (err instanceof LedgerUnreadable) throw new CliError(err.message);
    throw err;
  }
  const bar = progressBar('verifying', 0);
  const restored = await restoreFiles(dir, ctx.dataDir, {
    serviceKey,
    ledger,
    onEvents: (events) => bar.update(events),
    trusted: trustedKey(ctx, undefined),
  })
    .catch((err: unknown) => {
      throw err instanceof BackupRefused ? new CliError(err.message) : err;
    })
    .finally(() => bar.stop());
  // The ledger's keys are destroyed already: the read models are made without their values, then the erasures are appended.
  const again = await ctx.withStores(async (stores) => reapplyErasures(erasurePortsOf({ dataDir: ctx.dataDir }, stores), ledger));
  process.stdout.write(
    `restored ${dir} (position ${restored.manifest.log.position}) into ${ctx.dataDir}; ` +
      `erasure ledger ${ledgerFile ?? '(none)'}: ${ledger.length} trainees, ${again.erased} erased again, ` +
      `${again.notInLog} not in this backup; read models rebuilt from the log\n`,
  );
  if (restored.state !== 'restored') process.stdout.write(`${STATE_NOT_IN_BACKUP[restored.state]}\n`);
}

/** What a restore says of a backup without `state.sqlite` (docs/operations.md "Backups and restore"). */
const STATE_NOT_IN_BACKUP = {
  'in-read-models':
    'state.sqlite is not in this backup, an older one: its idempotency keys, webhook state and registry position were ' +
    'restored from its read-models.sqlite into state.sqlite',
  none: 'state.sqlite is not in this backup: nothing to restore for it (no idempotency key, webhook state or registry position was kept)',
} as const;

/** The ledger a restore reads: `--ledger`, else `$BACKUP_DIR`'s, else the one beside the backup; null when there is none. */
function ledgerOf(dir: string, option: string | undefined, ctx: CliContext): string | null {
  if (option) {
    if (!existsSync(option)) throw new CliError(`--ledger ${option}: no such file`);
    return option;
  }
  const backupDir = ctx.env.BACKUP_DIR?.trim();
  if (backupDir) return ledgerIn(backupDir);
  const beside = ledgerIn(dirname(dir));
  return existsSync(beside) ? beside : null;
}
