import type { ServiceKeyMaterial } from '@app/runtime/process';
import type { KeyObject } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sqliteVersion } from '@app/sqlite';
import { signDigest } from '@app/audit';
import { moveStateOutOfReadStore } from '@app/stores/sqlite';
import { BACKUP_PARTS, REBUILT_ON_RESTORE } from './backup-parts';
import { copyInThread } from './copy-in-thread';
import { auditLogCopy } from './log-copy';
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
 * Backs up the embedded stores of `dataDir` into `target` while the service runs and writes go on
 * (docs/operations.md "Backups and restore"): each file of {@link BACKUP_PARTS} that exists, in
 * that order, copied online on a thread of its own (`copyInThread`: `VACUUM INTO`; the state file
 * without its kept answers and webhook payloads); then every
 * chain of the log's copy checked and its heads summed up; then the manifest, written last.
 * A data dir not opened since its kept state was kept in `read-models.sqlite` has it moved into
 * `state.sqlite` first (`moveStateOutOfReadStore`), so that it is copied.
 * `target` is made 0700 (it must be empty or absent), every file in it 0600. Returns the manifest;
 * its `log` says how far the copy reaches. Throws {@link BackupRefused} for a target that holds
 * files or a data dir without a log; a copy whose chains do not hold is written all the same, and
 * its faults are in the answer's `faults`.
 */
export async function createBackup(
  dataDir: string,
  target: string,
  options: CreateBackupOptions,
): Promise<{ manifest: BackupManifest; faults: string[] }> {
  if (!existsSync(join(dataDir, 'events.sqlite'))) throw new BackupRefused(`${dataDir} holds no event log (events.sqlite)`);
  if (existsSync(target) && readdirSync(target).length > 0)
    throw new BackupRefused(`${target} is not empty: a backup goes into a new directory`);
  keepStateApart(dataDir);
  mkdirSync(target, { recursive: true, mode: 0o700 });
  chmodSync(target, 0o700);
  const now = options.now ?? (() => new Date());
  const createdAt = now().toISOString();
  const parts = BACKUP_PARTS.filter((p) => existsSync(join(dataDir, p.file)));
  const total = parts.reduce((sum, p) => sum + statSync(join(dataDir, p.file)).size, 0);
  let copied = 0;
  const files: ManifestFile[] = [];
  for (const part of parts) {
    const job = { source: join(dataDir, part.file), target: join(target, part.file), how: part.how };
    copied += await copyInThread(job, (bytes) => options.onProgress?.('copying', copied + bytes, Math.max(total, copied + bytes)));
  }
  const log = await auditLogCopy(target, (events) => options.onProgress?.('checking', events, 0));
  for (const part of parts) files.push({ name: part.file, ...(await fileDigest(join(target, part.file))), holds: part.holds });
  const digest = options.signingKey
    ? signDigest({ position: log.position, time: createdAt, streams: log.streams, root: log.headsRoot }, options.signingKey)
    : null;
  const manifest = sealManifest(
    {
      format: BACKUP_FORMAT,
      created_at: createdAt,
      versions: { service: serviceVersion(), node: process.versions.node, sqlite: sqliteVersion(), event_log_schema: log.schema },
      log: { position: log.position, events: log.events, streams: log.streams, heads_root: log.headsRoot },
      digest,
      files,
      rebuilt_on_restore: [...REBUILT_ON_RESTORE],
    },
    options.serviceKey,
  );
  writeManifest(target, manifest);
  return { manifest, faults: log.faults };
}

/** Moves an older data dir's kept state out of its read store (see `moveStateOutOfReadStore`); {@link BackupRefused} when it cannot. */
function keepStateApart(dataDir: string): void {
  try {
    moveStateOutOfReadStore(dataDir);
  } catch (err) {
    throw new BackupRefused(
      `the idempotency keys and webhook state are still in ${dataDir}/read-models.sqlite and could not be moved into state.sqlite ` +
        `(${err instanceof Error ? err.message : String(err)}): start the service once, which moves them, then back up`,
    );
  }
}
