import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LedgerUnreadable, readLedger, type BackupFiles, type LedgerRead } from '@app/backup';
import { embeddedBackups, storeConfigOf } from '@app/composition';
import { ConfigError, loadServiceKey, SANDBOX_KEY_FILE, type ServiceKey } from '@app/runtime/process';
import { CliError, type CliContext } from '../cli-context';

/**
 * The files a backup of the configured stores copies (`embeddedBackups`); refuses the production
 * stores: their backups are their own tools' (docs/operations.md "Backups and restore").
 */
export function embeddedOnly(ctx: CliContext): BackupFiles {
  const files = embeddedBackups(storeConfigOf(ctx.env));
  if (!files)
    throw new CliError(
      'backup works on the embedded stores (DATA_DIR); back up EventStoreDB and MongoDB as docs/operations.md "Backups and restore" says',
    );
  return files;
}

/**
 * The service key as it is, never made, with its file: `DATA_KEY_FILE`, else the sandbox's
 * `<DATA_DIR>/data-key`. Throws {@link CliError} with one sentence when there is neither (`what`
 * names the command), or the file is not a keyring.
 */
export function existingServiceKey(ctx: CliContext, what: string): ServiceKey {
  const dataKeyFile = ctx.env.DATA_KEY_FILE?.trim() || null;
  if (dataKeyFile === null && !existsSync(join(ctx.dataDir, SANDBOX_KEY_FILE)))
    throw new CliError(
      `${what} needs the service key the backup was made under: set DATA_KEY_FILE to its key file ` +
        `(in the sandbox, the ${SANDBOX_KEY_FILE} of the data dir the backup was taken from); nothing was done`,
    );
  try {
    return loadServiceKey({ dataDir: ctx.dataDir, dataKeyFile });
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.message);
    throw err;
  }
}

/** The erasure ledger `file` read and its chain checked under `key` (`readLedger`); {@link CliError} for a file missing or not a ledger. */
export function readLedgerOrRefuse(file: string, key: Buffer): LedgerRead {
  if (!existsSync(file)) throw new CliError(`--ledger ${file}: no such file`);
  try {
    return readLedger(file, key);
  } catch (err) {
    if (err instanceof LedgerUnreadable) throw new CliError(err.message);
    throw err;
  }
}
