import type { TrustedKey } from '@app/audit';
import { chmodSync, closeSync, copyFileSync, constants, existsSync, fsyncSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { eraseTrainee, type ErasurePorts } from '@app/personal-data/erasure';
import { SANDBOX_KEY_FILE, type ServiceKeyMaterial } from '@app/runtime/process';
import { READ_STORE_FILE, SqliteDataKeyStore, STATE_FILE } from '@app/stores/sqlite';
import { NotFound } from '@app/trainees/decider';
import { BackupRefused } from './create-backup';
import type { LedgerEntry } from './erasure-ledger';
import type { BackupManifest } from './manifest';
import { verifyBackup } from './verify-backup';

/** Who a re-applied erasure is recorded as erased by. */
export const LEDGER_ERASER = 'restore from the erasure ledger';

/** What {@link restoreFiles} did: the backup's manifest, the ledger trainees' data keys it destroyed, where the kept state came from. */
export interface RestoredFiles {
  manifest: BackupManifest;
  keysDestroyed: number;
  /**
   * `state.sqlite`: copied from the backup (`restored`); from an older backup's `read-models.sqlite`,
   * which held its tables, moved at the first open (`in-read-models`); or not in the backup at all,
   * so nothing to restore for it (`none`: no idempotency key, webhook state or registry position was kept).
   */
  state: 'restored' | 'in-read-models' | 'none';
}

/**
 * The first step of a restore (docs/operations.md "Backups and restore"): the backup in `dir`
 * verified (`verifyBackup` under `serviceKey`, a signed digest held to `trusted`), its files copied into `dataDir` (made 0700, files
 * 0600), then the data key of every trainee `ledger` names destroyed at the time it was erased,
 * before anything reads the log. What comes next is the caller's: the read models projected again
 * from the log, then the erasures re-applied ({@link reapplyErasures}). `dataDir` must be
 * empty or absent (it may hold the sandbox's service key file alone). Throws {@link BackupRefused}
 * for a data dir that holds anything else, or a backup that does not verify (naming each problem).
 */
export async function restoreFiles(
  dir: string,
  dataDir: string,
  options: {
    serviceKey: ServiceKeyMaterial;
    ledger: readonly LedgerEntry[];
    onEvents?: (events: number) => void;
    trusted?: TrustedKey | null;
  },
): Promise<RestoredFiles> {
  const present = existsSync(dataDir) ? readdirSync(dataDir).filter((f) => f !== SANDBOX_KEY_FILE) : [];
  if (present.length > 0)
    throw new BackupRefused(`${dataDir} is not empty (${present.slice(0, 3).join(', ')}…): a restore goes into an empty DATA_DIR`);
  const verified = await verifyBackup(dir, options.serviceKey, options.onEvents, options.trusted ?? null);
  if (verified.problems.length > 0)
    throw new BackupRefused(`the backup in ${dir} does not verify; nothing was restored:\n  ${verified.problems.join('\n  ')}`);
  const manifest = verified.manifest!;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  for (const f of manifest.files) {
    const to = join(dataDir, f.name);
    copyFileSync(join(dir, f.name), to, constants.COPYFILE_EXCL);
    chmodSync(to, 0o600);
    const fd = openSync(to, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
  let keysDestroyed = 0;
  const keys = SqliteDataKeyStore.open(dataDir);
  try {
    for (const e of options.ledger) if (await keys.destroy(e.trainee_id, new Date(e.erased_at))) keysDestroyed++;
  } finally {
    await keys.close();
  }
  const names = new Set(manifest.files.map((f) => f.name));
  const state = names.has(STATE_FILE) ? 'restored' : names.has(READ_STORE_FILE) ? 'in-read-models' : 'none';
  return { manifest, keysDestroyed, state };
}

/** What {@link reapplyErasures} did: trainees erased again in the log, and ledger trainees the restored log does not hold. */
export interface ReappliedErasures {
  erased: number;
  notInLog: number;
}

/**
 * Erases again, as `eraseTrainee` does (as {@link LEDGER_ERASER}, with the ledger's reason), every
 * trainee of `ledger` the restored log holds: its `TraineeErased` is appended where the backup was
 * made before it, and what the idempotency keys and the webhook deliveries kept of it is forgotten.
 * Run after {@link restoreFiles} (their keys are destroyed: the read models, projected again, never
 * held their values) on read models brought up to date, which it then makes forget them.
 */
export async function reapplyErasures(ports: ErasurePorts, ledger: readonly LedgerEntry[]): Promise<ReappliedErasures> {
  const done: ReappliedErasures = { erased: 0, notInLog: 0 };
  for (const e of ledger) {
    try {
      await eraseTrainee(ports, e.trainee_id, e.reason, LEDGER_ERASER);
      done.erased++;
    } catch (err) {
      if (!(err instanceof NotFound)) throw err;
      done.notInLog++;
    }
  }
  return done;
}
