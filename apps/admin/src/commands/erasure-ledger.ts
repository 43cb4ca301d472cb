import { join } from 'node:path';
import { appendToLedger, LEDGER_FILE } from '@app/stores/backup';
import type { ErasurePorts } from '@app/personal-data/erasure';
import type { CliContext } from '../cli-context';

/**
 * Where `trainee erase` and `retention apply` record each erasure (docs/operations.md "Backups and
 * restore"): the ledger `--ledger` names, else `$BACKUP_DIR/erasure-ledger.jsonl`; the writer the
 * erasure's ports take (`ErasurePorts.recordErasure`). Without either, nothing is recorded (a
 * restore of an earlier backup would then not erase the trainee again: the docs say to set it).
 */
export function erasureLedger(ctx: CliContext, option: string | undefined): ErasurePorts['recordErasure'] {
  const backupDir = ctx.env.BACKUP_DIR?.trim();
  const file = option ?? (backupDir ? join(backupDir, LEDGER_FILE) : null);
  if (file === null) return undefined;
  return async (traineeId, erasedAt, reason) => appendToLedger(file, { trainee_id: traineeId, erased_at: erasedAt, reason });
}
