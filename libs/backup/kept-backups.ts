import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BackupNeed, KeptBackups } from '@app/keys';
import type { ServiceKeyMaterial } from '@app/runtime/process';
import type { BackupFiles } from './backup-files.port';
import { readManifest, serviceKeyCheck } from './manifest';

/** The name a scheduled backup has while it is being made (`BackupSchedule`). */
const PARTIAL = '.partial';

/**
 * The backups of `files` kept in `dir` (`BACKUP_DIR`: each directory there holding a backup's
 * files) as a retirement looks at them (`retireKeyVersion`, libs/keys; docs/operations.md "Rotating
 * the service key"). A backup needs a version when its key store copy holds a living data key
 * wrapped under it or its log copy an endpoint's current secret sealed under it: without the
 * version, `backup verify` and `backup restore` refuse it. A manifest records no key version, so
 * the copies are read (read-only, `BackupFiles.keyVersionUse`) for the versions they hold; a backup
 * made under another service key (its manifest's `service_key_check`) is not this keyring's and is
 * left out; one without a manifest (unfinished, or left by a failed run) or whose files cannot be
 * read is named as not checked.
 */
export function keptBackupsIn(files: BackupFiles, dir: string, serviceKey: ServiceKeyMaterial): KeptBackups {
  return {
    dir,
    needing: async (version) => {
      if (!existsSync(dir)) return [];
      const needs: BackupNeed[] = [];
      for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        if (!entry.isDirectory()) continue;
        const why = whyNeeded(files, join(dir, entry.name), entry.name, version, serviceKey);
        if (why !== null) needs.push({ name: entry.name, why });
      }
      return needs;
    },
  };
}

/** Why the backup in `path` needs `version`, in words; null when it does not, or is no backup of this keyring. */
function whyNeeded(files: BackupFiles, path: string, name: string, version: number, serviceKey: ServiceKeyMaterial): string | null {
  const present = readdirSync(path);
  if (!files.parts.some((p) => present.includes(p.file))) return null;
  const manifest = readManifest(path);
  if (typeof manifest === 'string' || name.endsWith(PARTIAL)) return 'unfinished or without a readable manifest: not checked';
  if (manifest.service_key_check !== serviceKeyCheck(serviceKey)) return null;
  try {
    const { dataKeys, secrets } = files.keyVersionUse(path, version);
    if (dataKeys === 0 && secrets === 0) return null;
    return `holds ${dataKeys} data keys and ${secrets} webhook secrets under version ${version}`;
  } catch {
    return `its ${files.keysFile} or ${files.logFile} cannot be read: not checked`;
  }
}
