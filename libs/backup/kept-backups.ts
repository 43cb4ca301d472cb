import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BackupNeed, KeptBackups } from '@app/keys';
import type { ServiceKeyMaterial } from '@app/runtime/process';
import type { BackupFiles } from './backup-files.port';
import { readManifest, serviceKeyCheck } from './manifest';

const PARTIAL = '.partial';

/**
 * The backups in `dir` (`BACKUP_DIR`) as a retirement looks at them (docs/operations.md "Rotating the service key"): one needs a version
 * while its key store copy holds a living data key or its log copy a current secret under it, read from the copies (a manifest records
 * no key version). A backup under another service key is left out; one without a manifest or unreadable is named as not checked.
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
