import type { ServiceKeyMaterial } from '@app/runtime/process';
import type { KeyObject } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { signDigest } from '@app/audit';
import { REBUILT_ON_RESTORE, type BackupFiles } from './backup-files.port';
import { BACKUP_FORMAT, fileDigest, sealManifest, serviceVersion, writeManifest, type BackupManifest, type ManifestFile } from './manifest';

/** A backup that cannot be made as asked (a target that holds files, no log to copy); the message says why. */
export class BackupRefused extends Error {}

/** What a backup's progress is told: the stage, and how far (bytes copied, or events checked) of how much (0: unknown). */
export type BackupProgress = (stage: 'copying' | 'checking', done: number, total: number) => void;

/** How {@link createBackup} makes a backup. */
export interface CreateBackupOptions {
  /** The service key: the manifest's MAC is made under a key derived from it. */
  serviceKey: ServiceKeyMaterial;
  /** The audit signing key, where one is configured: the heads' root is signed with it. */
  signingKey: KeyObject | null;
  onProgress?: BackupProgress;
  now?: () => Date;
}

/**
 * Backs up the stores of `dataDir` into `target` while the service runs and writes go on
 * (docs/operations.md "Backups and restore"): each part of `files` that exists, in that order,
 * copied online (`BackupFiles.copy`: the file as of one commit); then every chain of the log's
 * copy checked and its heads summed up; then the manifest, written last. The data dir is readied
 * first (`BackupFiles.readyForCopy`: an older data dir's kept state moved where it is copied).
 * `target` is made 0700 (it must be empty or absent), every file in it 0600. Returns the manifest;
 * its `log` says how far the copy reaches. Throws {@link BackupRefused} for a target that holds
 * files, a data dir without a log or one that cannot be readied; a copy whose chains do not hold is
 * written all the same, and its faults are in the answer's `faults`.
 */
export async function createBackup(
  files: BackupFiles,
  dataDir: string,
  target: string,
  options: CreateBackupOptions,
): Promise<{ manifest: BackupManifest; faults: string[] }> {
  if (!existsSync(join(dataDir, files.logFile))) throw new BackupRefused(`${dataDir} holds no event log (${files.logFile})`);
  if (existsSync(target) && readdirSync(target).length > 0)
    throw new BackupRefused(`${target} is not empty: a backup goes into a new directory`);
  readyForCopy(files, dataDir);
  mkdirSync(target, { recursive: true, mode: 0o700 });
  chmodSync(target, 0o700);
  const now = options.now ?? (() => new Date());
  const createdAt = now().toISOString();
  const parts = files.parts.filter((p) => existsSync(join(dataDir, p.file)));
  const total = parts.reduce((sum, p) => sum + statSync(join(dataDir, p.file)).size, 0);
  let copied = 0;
  const copies: ManifestFile[] = [];
  for (const part of parts) {
    const onBytes = (bytes: number) => options.onProgress?.('copying', copied + bytes, Math.max(total, copied + bytes));
    copied += await files.copy(part, join(dataDir, part.file), join(target, part.file), onBytes);
  }
  const log = await files.checkLogCopy(target, (events) => options.onProgress?.('checking', events, 0));
  for (const part of parts) copies.push({ name: part.file, ...(await fileDigest(join(target, part.file))), holds: part.holds });
  const digest = options.signingKey
    ? signDigest({ position: log.position, time: createdAt, streams: log.streams, root: log.headsRoot }, options.signingKey)
    : null;
  const manifest = sealManifest(
    {
      format: BACKUP_FORMAT,
      created_at: createdAt,
      versions: { service: serviceVersion(), node: process.versions.node, sqlite: files.engineVersion(), event_log_schema: log.schema },
      log: { position: log.position, events: log.events, streams: log.streams, heads_root: log.headsRoot },
      digest,
      files: copies,
      rebuilt_on_restore: [...REBUILT_ON_RESTORE],
    },
    options.serviceKey,
  );
  writeManifest(target, manifest);
  return { manifest, faults: log.faults };
}

/** Readies `dataDir` for its copy (`BackupFiles.readyForCopy`); {@link BackupRefused} with its sentence when it cannot. */
function readyForCopy(files: BackupFiles, dataDir: string): void {
  try {
    files.readyForCopy(dataDir);
  } catch (err) {
    throw new BackupRefused(err instanceof Error ? err.message : String(err));
  }
}
