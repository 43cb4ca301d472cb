import type { Command } from 'commander';
import { BackupRefused, createBackup, keepLedgerIn, LEDGER_FILE, ledgerKey, verificationSummary, verifyBackup } from '@app/backup';
import { backupFiles } from '@app/composition';
import { CliError, type CliContext } from '../cli-context';
import { ownSigningKey, progressBar, trustedKey } from './audit-files';
import { embeddedOnly, existingServiceKey, readLedgerOrRefuse } from './backup-common';
import { restoreCommand } from './backup-restore';

/**
 * The backups of the embedded stores (docs/operations.md "Backups and restore"; libs/backup):
 *
 * - `backup create --output <dir>` copies the stores of `DATA_DIR` online, while the service runs
 *   and writes go on (`createBackup`), with a progress bar on stderr and one line on stdout: the
 *   log's position it reaches, its events and streams, the files; with `BACKUP_DIR`, the erasure
 *   ledger there is made, empty, when there is none. Exit 1 when the log's copy holds chain faults
 *   (the backup is written, and names them), or `<dir>` is not empty.
 * - `backup verify <dir> [--ledger <file>]` checks a backup (`verifyBackup`), and the erasure
 *   ledger's chain when given one: one line on stdout when it holds; else each problem on stderr,
 *   exit 1.
 * - `backup restore <dir> [--ledger <file> | --no-ledger]` restores it into an empty `DATA_DIR`
 *   (./backup-restore.ts).
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
    .option('--ledger <file>', "the erasure ledger: its lines' MACs and their chain are checked too")
    .action((dir: string, opts: { ledger?: string }) => verifyCommand(dir, opts.ledger, ctx));
  backup
    .command('restore')
    .description('restore a backup into an empty DATA_DIR, erase again every trainee the erasure ledger names, rebuild the read models')
    .argument('<dir>', 'the backup')
    .option('--ledger <file>', `the erasure ledger (default: $BACKUP_DIR/${LEDGER_FILE}, else the one beside the backup)`)
    .option('--no-ledger', 'restore without an erasure ledger: every trainee erased after the backup comes back')
    .action((dir: string, opts: { ledger?: string | false }) => restoreCommand(dir, opts.ledger, ctx));
}

async function createCommand(output: string, ctx: CliContext): Promise<void> {
  const stores = embeddedOnly(ctx);
  const backupDir = ctx.env.BACKUP_DIR?.trim();
  if (backupDir) keepLedgerIn(backupDir);
  // The copy's bar in MB (made at its first report, which knows the total), then the check's in events.
  const bars: { copying: ReturnType<typeof progressBar> | null; checking: ReturnType<typeof progressBar> | null } = {
    copying: null,
    checking: null,
  };
  const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;
  try {
    const made = await createBackup(stores, ctx.dataDir, output, {
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

async function verifyCommand(dir: string, ledgerFile: string | undefined, ctx: CliContext): Promise<void> {
  const serviceKey = existingServiceKey(ctx, 'backup verify');
  const ledger = ledgerFile === undefined ? null : readLedgerOrRefuse(ledgerFile, ledgerKey(serviceKey.keyring));
  const bar = progressBar('verifying', 0);
  const verified = await verifyBackup(
    backupFiles(),
    dir,
    serviceKey.keyring,
    (events) => bar.update(events),
    trustedKey(ctx, undefined),
  ).finally(() => bar.stop());
  const problems = [...verified.problems, ...(ledger?.problems ?? [])];
  if (problems.length > 0) {
    for (const p of problems) process.stderr.write(`${p}\n`);
    throw new CliError(`the backup in ${dir} does not verify: ${problems.length} problem(s)`);
  }
  process.stdout.write(`${verificationSummary(dir, verified)}\n`);
  if (ledger)
    process.stdout.write(
      `erasure ledger ${ledgerFile}: ${ledger.lines} lines, every MAC holds, in order` +
        `${ledger.unauthenticated > 0 ? `; ${ledger.unauthenticated} older lines have no MAC (unauthenticated)` : ''}\n`,
    );
}
