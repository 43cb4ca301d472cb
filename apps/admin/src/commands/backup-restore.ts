import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  BackupRefused,
  ledgerIn,
  ledgerKey,
  madeUnder,
  manifestUnder,
  reapplyErasures,
  restoreFiles,
  type BackupManifest,
  type LedgerRead,
} from '@app/backup';
import { erasurePortsOf } from '@app/composition';
import { readKeyring } from '@app/keys';
import { SANDBOX_KEY_FILE, type ServiceKey } from '@app/runtime/process';
import { CliError, type CliContext } from '../cli-context';
import { progressBar, trustedKey } from './audit-files';
import { embeddedOnly, existingServiceKey, readLedgerOrRefuse } from './backup-common';

/**
 * `backup restore <dir> [--ledger <file> | --no-ledger]` (docs/operations.md "Backups and
 * restore"): with the service key the backup was made under (`DATA_KEY_FILE`, else the sandbox's
 * `<DATA_DIR>/data-key`), checked against the manifest before anything is copied; the erasure
 * ledger found (`--ledger`, else `$BACKUP_DIR`'s, else the one beside the backup) and its chain
 * checked; then the files copied into the empty `DATA_DIR` and checked there (`restoreFiles`),
 * every erasure of the ledger applied again (`reapplyErasures`) and the read models projected
 * again. Exit 1, nothing restored, for a missing or wrong key, a stray `data-key` in `DATA_DIR`
 * that is not the backup's key, no ledger found (unless `--no-ledger`, which then says who may come
 * back), a ledger whose chain does not hold, a data dir that is not empty, or copies that do not
 * verify. `ledgerOption` is commander's: a file, `false` for `--no-ledger`, undefined for neither.
 */
export async function restoreCommand(dir: string, ledgerOption: string | false | undefined, ctx: CliContext): Promise<void> {
  const stores = embeddedOnly(ctx);
  const key = existingServiceKey(ctx, 'backup restore');
  const manifest = refusing(() => manifestUnder(dir, key.keyring, key.file));
  refuseStrayKey(ctx, manifest);
  const ledgerFile = ledgerOption === false ? null : ledgerOf(dir, ledgerOption, ctx);
  if (ledgerFile === null && ledgerOption !== false)
    throw new CliError(
      `no erasure ledger was found (--ledger, $BACKUP_DIR/erasure-ledger.jsonl, or one beside the backup): every trainee erased ` +
        `after this backup was made (${manifest.created_at}) would come back with its personal data; give the ledger with ` +
        `--ledger <file> (the copy kept off the machine), or restore with --no-ledger to bring them back knowingly`,
    );
  const ledger = ledgerFile === null ? null : readLedgerOrRefuse(ledgerFile, ledgerKey(key.keyring));
  if (ledger && ledger.problems.length > 0) {
    for (const p of ledger.problems) process.stderr.write(`${p}\n`);
    throw new CliError(
      `the erasure ledger ${ledgerFile} does not hold (${ledger.problems.length} line(s) named above), so an erasure may be missing ` +
        'from it; restore with the copy of the ledger kept off the machine (--ledger <file>); nothing was restored',
    );
  }
  const entries = ledger?.entries ?? [];
  const bar = progressBar('checking the copy', 0);
  const restored = await restoreFiles(stores, dir, ctx.dataDir, {
    serviceKey: key.keyring,
    keyFile: key.file,
    ledger: entries,
    onEvents: (events) => bar.update(events),
    trusted: trustedKey(ctx, undefined),
  })
    .catch((err: unknown) => {
      throw err instanceof BackupRefused ? new CliError(err.message) : err;
    })
    .finally(() => bar.stop());
  // The ledger's keys are destroyed already: the read models are made without their values, then the erasures are appended.
  const again = await ctx.withStores(async (stores) => reapplyErasures(erasurePortsOf(stores), entries));
  process.stdout.write(
    `restored ${dir} (position ${restored.manifest.log.position}) into ${ctx.dataDir}; read models rebuilt from the log\n`,
  );
  process.stdout.write(`${ledgerLine(ledgerFile, ledger, again, manifest)}\n`);
  if (restored.state !== 'restored') process.stdout.write(`${STATE_NOT_IN_BACKUP[restored.state]}\n`);
  process.stdout.write(`${startLine(ctx, key)}\n`);
}

/** `fn`'s value; a {@link BackupRefused} it throws becomes a {@link CliError} (exit 1, its sentence). */
function refusing<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw err instanceof BackupRefused ? new CliError(err.message) : err;
  }
}

/**
 * Refuses a `data-key` left in `DATA_DIR` (by an earlier start that made one) when `DATA_KEY_FILE`
 * names the key and that file is not the backup's: a later start without `DATA_KEY_FILE` would read
 * it and open nothing.
 */
function refuseStrayKey(ctx: CliContext, manifest: BackupManifest): void {
  const stray = join(ctx.dataDir, SANDBOX_KEY_FILE);
  if (!ctx.env.DATA_KEY_FILE?.trim() || !existsSync(stray)) return;
  let holds = false;
  try {
    holds = madeUnder(manifest, readKeyring(stray, 'the sandbox key file'));
  } catch {
    holds = false;
  }
  if (!holds)
    throw new CliError(
      `${stray} is not the service key the backup was made under (an earlier start left it): delete it, then restore again with DATA_KEY_FILE`,
    );
}

/** The ledger a restore reads: `--ledger`, else `$BACKUP_DIR`'s, else the one beside the backup, the first that exists; null for none. */
function ledgerOf(dir: string, option: string | undefined, ctx: CliContext): string | null {
  if (option) {
    if (!existsSync(option)) throw new CliError(`--ledger ${option}: no such file`);
    return option;
  }
  const backupDir = ctx.env.BACKUP_DIR?.trim();
  const candidates = [...(backupDir ? [ledgerIn(backupDir)] : []), ledgerIn(dirname(dir))];
  return candidates.find((f) => existsSync(f)) ?? null;
}

/** What a restore says of the ledger it applied, or of its absence (`--no-ledger`): who may be back. */
function ledgerLine(
  file: string | null,
  ledger: LedgerRead | null,
  again: { erased: number; notInLog: number },
  manifest: BackupManifest,
): string {
  if (file === null || ledger === null)
    return (
      `erasure ledger: none (--no-ledger): every trainee erased after ${manifest.created_at} is back, with its personal data; ` +
      'erase each again (trainee erase) from your records of erasures'
    );
  const older = ledger.unauthenticated > 0 ? `; ${ledger.unauthenticated} older lines have no MAC (unauthenticated: taken on trust)` : '';
  return (
    `erasure ledger ${file}: ${counted(ledger.entries.length, 'trainee')}, ${again.erased} erased again, ${again.notInLog} not in this backup; ` +
    `${counted(ledger.lines, 'line')}, every MAC holds${older}`
  );
}

/** How to start the service on the restored data dir: with the key file the restore read. */
function startLine(ctx: CliContext, key: ServiceKey): string {
  return ctx.env.DATA_KEY_FILE?.trim()
    ? `start the service on it with DATA_DIR=${ctx.dataDir} DATA_KEY_FILE=${key.file}`
    : `start the service on it with DATA_DIR=${ctx.dataDir} (its key is ${key.file})`;
}

/** What a restore says of a backup without `state.sqlite` (docs/operations.md "Backups and restore"). */
const STATE_NOT_IN_BACKUP = {
  'in-read-models':
    'state.sqlite is not in this backup, an older one: its idempotency keys, webhook state and registry position were ' +
    'restored from its read-models.sqlite into state.sqlite',
  none: 'state.sqlite is not in this backup: nothing to restore for it (no idempotency key, webhook state or registry position was kept)',
} as const;

/** `n` and `noun`, plural unless `n` is 1: `1 trainee`, `3 lines`. */
function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
