import { appendToLedger, ledgerIn, ledgerKey } from '@app/backup';
import type { ErasurePorts } from '@app/personal-data/erasure';
import { CliError, type CliContext } from '../cli-context';

/**
 * Where `trainee erase` and `retention apply` (`command` names which) record each erasure
 * (docs/operations.md "Backups and restore"): the ledger `--ledger` names, else
 * `$BACKUP_DIR/erasure-ledger.jsonl`; the writer the erasure's ports take
 * (`ErasurePorts.recordErasure`), each line with its MAC under the service key's ledger key
 * (`ledgerKey`). Without either, production refuses ({@link CliError}, before anything is erased:
 * a restore of an earlier backup would bring the trainee back), and the sandbox warns on stderr
 * and records nothing.
 */
export function erasureLedger(ctx: CliContext, option: string | undefined, command: string): ErasurePorts['recordErasure'] {
  const backupDir = ctx.env.BACKUP_DIR?.trim();
  const file = option ?? (backupDir ? ledgerIn(backupDir) : null);
  if (file === null) {
    if (ctx.environment === 'production')
      throw new CliError(
        `${command} records every erasure in the erasure ledger in production: set BACKUP_DIR (where the backups and ` +
          'erasure-ledger.jsonl are kept) or give --ledger <file>, so a restore of an earlier backup erases the trainee again; nothing was erased',
      );
    process.stderr.write(
      `Warning: no erasure ledger (BACKUP_DIR is not set and no --ledger given): what ${command} erases now is recorded nowhere ` +
        'outside DATA_DIR, so a restore of an earlier backup would bring it back.\n',
    );
    return undefined;
  }
  const key = ledgerKey(ctx.serviceKey());
  return async (traineeId, erasedAt, reason) => appendToLedger(file, { trainee_id: traineeId, erased_at: erasedAt, reason }, key);
}
