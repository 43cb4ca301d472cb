import type { TrustedKey } from '@app/audit';
import {
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmdirSync,
  rmSync,
} from 'node:fs';
import { join } from 'node:path';
import { eraseTrainee, type ErasurePorts } from '@app/personal-data/erasure';
import { SANDBOX_KEY_FILE, type ServiceKeyMaterial } from '@app/runtime/process';
import { NotFound } from '@app/trainees/decider';
import type { BackupFiles } from './backup-files.port';
import { BackupRefused } from './create-backup';
import type { LedgerEntry } from './erasure-ledger';
import { madeUnder, manifestProblem, readManifest, type BackupManifest } from './manifest';
import { checkBackupFiles } from './verify-backup';

export const LEDGER_ERASER = 'restore from the erasure ledger';

/** `keysDestroyed`: the ledger trainees' data keys destroyed. */
export interface RestoredFiles {
  manifest: BackupManifest;
  keysDestroyed: number;
  /** Copied (`restored`), in an older backup's read models and moved at first open (`in-read-models`), or never kept (`none`). */
  state: 'restored' | 'in-read-models' | 'none';
}

export interface RestoreOptions {
  /** The one the backup was made under. */
  serviceKey: ServiceKeyMaterial;
  /** `DATA_KEY_FILE`'s file, for the refusals to name. */
  keyFile?: string;
  /** Erasures to apply again: their data keys are destroyed in the copy. */
  ledger: readonly LedgerEntry[];
  onEvents?: (events: number) => void;
  /** A signed digest's signer, where configured. */
  trusted?: TrustedKey | null;
  /** Once the manifest holds, before the first file is copied (a test swaps a file there). */
  beforeCopy?: () => void;
}

/** The manifest of the backup in `dir`, its MAC holding under `serviceKey`; reads nothing else. {@link BackupRefused} otherwise. */
export function manifestUnder(dir: string, serviceKey: ServiceKeyMaterial, keyFile?: string): BackupManifest {
  const read = readManifest(dir);
  if (typeof read === 'string') throw new BackupRefused(read);
  if (!madeUnder(read, serviceKey))
    throw new BackupRefused(
      `the backup in ${dir} was made under another service key than ${keyFile ?? 'the one given'}: set DATA_KEY_FILE to the key file ` +
        `of the service it was taken from (in the sandbox, the data-key of the data dir it was taken from)`,
    );
  const problem = manifestProblem(read, serviceKey);
  if (problem !== null) throw new BackupRefused(problem);
  return read;
}

/**
 * A restore's first step (docs/operations.md "Backups and restore"): the manifest held to the key before anything is copied; the files
 * copied into `dataDir` (0700, files 0600) and checked as `backup verify` checks, so what is restored is what was checked whatever
 * happens to the backup meanwhile; then each ledger trainee's data key destroyed at its erasure time, before anything reads the log.
 * The caller then projects the read models and calls {@link reapplyErasures}. {@link BackupRefused} for a `dataDir` holding anything but
 * the sandbox key file, a manifest that does not hold, or copies that do not verify (removed: `dataDir` left as found).
 */
export async function restoreFiles(files: BackupFiles, dir: string, dataDir: string, options: RestoreOptions): Promise<RestoredFiles> {
  const present = existsSync(dataDir) ? readdirSync(dataDir).filter((f) => f !== SANDBOX_KEY_FILE) : [];
  if (present.length > 0)
    throw new BackupRefused(`${dataDir} is not empty (${present.slice(0, 3).join(', ')}…): a restore goes into an empty DATA_DIR`);
  const manifest = manifestUnder(dir, options.serviceKey, options.keyFile);
  options.beforeCopy?.();
  const made = !existsSync(dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  const copied: string[] = [];
  try {
    for (const f of manifest.files) {
      // A file missing from the backup is named by the check below.
      if (!existsSync(join(dir, f.name))) continue;
      copied.push(f.name);
      copyPrivately(join(dir, f.name), join(dataDir, f.name));
    }
    const checked = await checkBackupFiles(files, dataDir, manifest, options.serviceKey, options.onEvents, options.trusted ?? null);
    if (checked.problems.length > 0)
      throw new BackupRefused(
        `the backup in ${dir} does not verify as copied into ${dataDir}; nothing was restored (the copies are removed):\n  ` +
          checked.problems.join('\n  '),
      );
  } catch (err) {
    removeCopies(dataDir, copied, made);
    throw err;
  }
  const erased = options.ledger.map((e) => ({ traineeId: e.trainee_id, at: new Date(e.erased_at) }));
  const keysDestroyed = await files.destroyKeys(dataDir, erased);
  const names = new Set(manifest.files.map((f) => f.name));
  const state = names.has(files.stateFile) ? 'restored' : names.has(files.olderStateFile) ? 'in-read-models' : 'none';
  return { manifest, keysDestroyed, state };
}

/** Refused when `to` exists; 0600, synced. */
function copyPrivately(from: string, to: string): void {
  copyFileSync(from, to, constants.COPYFILE_EXCL);
  chmodSync(to, 0o600);
  const fd = openSync(to, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** With their SQLite companions, and `dataDir` when `made`. */
function removeCopies(dataDir: string, names: readonly string[], made: boolean): void {
  for (const name of names) for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(join(dataDir, name + suffix), { force: true });
  if (made && readdirSync(dataDir).length === 0) rmdirSync(dataDir);
}

/** `notInLog`: ledger trainees the restored log does not hold. */
export interface ReappliedErasures {
  erased: number;
  notInLog: number;
}

/**
 * Erases again as {@link LEDGER_ERASER} each ledger trainee the restored log holds (its `TraineeErased` appended where the backup
 * predates it; idempotency keys and deliveries forgotten). After {@link restoreFiles}, on read models brought up to date.
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
