import type { ServiceKeyMaterial } from '@app/runtime/process';
import type { KeyObject } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { signDigest } from '@app/audit';
import { REBUILT_ON_RESTORE, type BackupFiles } from './backup-files.port';
import { BACKUP_FORMAT, fileDigest, sealManifest, serviceVersion, writeManifest, type BackupManifest, type ManifestFile } from './manifest';

/** A target that holds files, no log to copy, …; the message says why. */
export class BackupRefused extends Error {}

/** `done` of `total` (0: unknown): bytes copied, or events checked. */
export type BackupProgress = (stage: 'copying' | 'checking', done: number, total: number) => void;

export interface CreateBackupOptions {
  /** The manifest's MAC is made under a key derived from it. */
  serviceKey: ServiceKeyMaterial;
  /** Signs the heads' root, where an audit key is configured. */
  signingKey: KeyObject | null;
  onProgress?: BackupProgress;
  now?: () => Date;
}

/**
 * Backs up the stores of `dataDir` into `target` while writes go on (docs/operations.md "Backups and restore"): the data dir readied,
 * each existing part copied online as of one commit, the log copy's chains checked and heads summed, the manifest written last.
 * `target` 0700 (empty or absent), its files 0600. {@link BackupRefused} for a target that holds files, a data dir without a log or one
 * that cannot be readied; a copy whose chains do not hold is written all the same, its faults in the answer.
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

/** {@link BackupRefused} with the stores' sentence when it cannot. */
function readyForCopy(files: BackupFiles, dataDir: string): void {
  try {
    files.readyForCopy(dataDir);
  } catch (err) {
    throw new BackupRefused(err instanceof Error ? err.message : String(err));
  }
}
