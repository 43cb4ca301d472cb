import { Database } from '@app/sqlite';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BackupNeed, KeptBackups } from '@app/keys';
import { wrappedKeyVersion } from '@app/personal-data';
import type { ServiceKeyMaterial } from '@app/runtime/process';
import { WEBHOOK_STREAM_PREFIX } from '@app/webhooks/decider';
import { SealedSecrets } from '@app/webhooks/write';
import { BACKUP_PARTS } from './backup-parts';
import { readManifest, serviceKeyCheck } from './manifest';

/** The name a scheduled backup has while it is being made (`BackupSchedule`). */
const PARTIAL = '.partial';

/**
 * The backups kept in `dir` (`BACKUP_DIR`: each directory there holding a backup's files) as a
 * retirement looks at them (`retireKeyVersion`, libs/keys; docs/operations.md "Rotating the service
 * key"). A backup needs a version when its key store copy holds a living data key wrapped under it
 * or its log copy an endpoint's current secret sealed under it: without the version, `backup
 * verify` and `backup restore` refuse it. A manifest records no key version, so the copies are
 * read (read-only) for the versions they hold; a backup made under another service key (its
 * manifest's `service_key_check`) is not this keyring's and is left out; one without a manifest
 * (unfinished, or left by a failed run) or whose files cannot be read is named as not checked.
 */
export function keptBackupsIn(dir: string, serviceKey: ServiceKeyMaterial): KeptBackups {
  return {
    dir,
    needing: async (version) => {
      if (!existsSync(dir)) return [];
      const needs: BackupNeed[] = [];
      for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        if (!entry.isDirectory()) continue;
        const why = whyNeeded(join(dir, entry.name), entry.name, version, serviceKey);
        if (why !== null) needs.push({ name: entry.name, why });
      }
      return needs;
    },
  };
}

/** Why the backup in `path` needs `version`, in words; null when it does not, or is no backup of this keyring. */
function whyNeeded(path: string, name: string, version: number, serviceKey: ServiceKeyMaterial): string | null {
  const files = readdirSync(path);
  if (!BACKUP_PARTS.some((p) => files.includes(p.file))) return null;
  const manifest = readManifest(path);
  if (typeof manifest === 'string' || name.endsWith(PARTIAL)) return 'unfinished or without a readable manifest: not checked';
  if (manifest.service_key_check !== serviceKeyCheck(serviceKey)) return null;
  try {
    const keys = files.includes('keys.sqlite') ? dataKeysUnder(join(path, 'keys.sqlite'), version) : 0;
    const secrets = files.includes('events.sqlite') ? secretsUnder(join(path, 'events.sqlite'), version) : 0;
    if (keys === 0 && secrets === 0) return null;
    return `holds ${keys} data keys and ${secrets} webhook secrets under version ${version}`;
  } catch {
    return 'its keys.sqlite or events.sqlite cannot be read: not checked';
  }
}

/** How many living data keys the key store copy `file` holds wrapped under `version`. */
function dataKeysUnder(file: string, version: number): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    let count = 0;
    const rows = db.prepare<[], [Buffer]>('SELECT wrapped FROM data_keys WHERE wrapped IS NOT NULL').raw(true);
    for (const [wrapped] of rows.iterate()) if (wrappedKeyVersion(wrapped) === version) count++;
    return count;
  } finally {
    db.close();
  }
}

/** How many webhook endpoints of the log copy `file` have their current secret (the last one stored) sealed under `version`. */
function secretsUnder(file: string, version: number): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const latest = new Map<string, string>();
    const rows = db
      .prepare<[number, string], [string, string]>('SELECT stream_id, data FROM events WHERE substr(stream_id, 1, ?) = ? ORDER BY position')
      .raw(true);
    for (const [streamId, text] of rows.iterate(WEBHOOK_STREAM_PREFIX.length, WEBHOOK_STREAM_PREFIX)) {
      const secret = (JSON.parse(text) as { secret?: unknown }).secret;
      if (typeof secret === 'string') latest.set(streamId, secret);
    }
    return [...latest.values()].filter((secret) => SealedSecrets.versionOf(secret) === version).length;
  } finally {
    db.close();
  }
}
