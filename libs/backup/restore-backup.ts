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

/** Who a re-applied erasure is recorded as erased by. */
export const LEDGER_ERASER = 'restore from the erasure ledger';

/** What {@link restoreFiles} did: the backup's manifest, the ledger trainees' data keys it destroyed, where the kept state came from. */
export interface RestoredFiles {
  manifest: BackupManifest;
  keysDestroyed: number;
  /**
   * The kept state's file (`BackupFiles.stateFile`, `state.sqlite`): copied from the backup
   * (`restored`); from an older backup's `read-models.sqlite` (`BackupFiles.olderStateFile`), which
   * held its tables, moved at the first open (`in-read-models`); or not in the backup at all,
   * so nothing to restore for it (`none`: no idempotency key, webhook state or registry position was kept).
   */
  state: 'restored' | 'in-read-models' | 'none';
}

/** How {@link restoreFiles} restores. */
export interface RestoreOptions {
  /** The service key the backup was made under. */
  serviceKey: ServiceKeyMaterial;
  /** Where that key was read from, for the refusals to name (`DATA_KEY_FILE`'s file). */
  keyFile?: string;
  /** The erasures to apply again: their trainees' data keys are destroyed in the copy. */
  ledger: readonly LedgerEntry[];
  onEvents?: (events: number) => void;
  /** The key a signed digest must be signed by, where one is configured. */
  trusted?: TrustedKey | null;
  /** Called once the manifest holds, before the first file is copied (a test swaps a file there). */
  beforeCopy?: () => void;
}

/**
 * The manifest of the backup in `dir`, made under `serviceKey` and unchanged since (its MAC holds).
 * Throws {@link BackupRefused} with one sentence otherwise (no manifest, another service key, an
 * edited manifest); reads nothing but the manifest.
 */
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
 * The first step of a restore of `files` (docs/operations.md "Backups and restore"): the manifest of the
 * backup in `dir` held to the service key ({@link manifestUnder}, before anything is copied); its
 * files copied into `dataDir` (made 0700, files 0600); the copies checked as `backup verify`
 * checks a backup ({@link checkBackupFiles}: each one's size and SHA-256 against the manifest, and
 * no copy whose hash fails is opened), so what is restored is what was checked, whatever happened
 * to the backup's files meanwhile; then the data key of every trainee `ledger` names destroyed at
 * the time it was erased, before anything reads the log. What comes next is the caller's: the read
 * models projected again from the log, then the erasures re-applied ({@link reapplyErasures}).
 * `dataDir` must be empty or absent (it may hold the sandbox's service key file alone). Throws
 * {@link BackupRefused} for a data dir that holds anything else, a manifest that does not hold
 * (nothing copied), or copies that do not verify (each problem named), which are removed first:
 * `dataDir` is left as it was found (removed again when the restore made it).
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

/** Copies `from` to the new file `to` (refused when it exists), 0600, synced to disk. */
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

/** Removes the files `names` copied into `dataDir`, with any companion SQLite made beside them, and `dataDir` itself when `made`. */
function removeCopies(dataDir: string, names: readonly string[], made: boolean): void {
  for (const name of names) for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(join(dataDir, name + suffix), { force: true });
  if (made && readdirSync(dataDir).length === 0) rmdirSync(dataDir);
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
