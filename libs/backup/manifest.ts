import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SignedDigest } from '@app/audit';
import { deriveKey, type ServiceKeyMaterial } from '@app/runtime/process';
import { MANIFEST_FILE } from './backup-files.port';

/** Names the manifest's format (docs/operations.md "Backups and restore"). */
export const BACKUP_FORMAT = 'trainee-records-backup/1';

/** `sha256` in hex. */
export interface ManifestFile {
  name: string;
  bytes: number;
  sha256: string;
  holds: string;
}

/**
 * `manifest.json`, snake_case as the service's JSON is: `created_at` ISO 8601 UTC; `heads_root` the Merkle root over every stream's
 * head as a signed digest makes it (docs/DESIGN.md "Signed digests"), `digest` it signed where an audit key is configured, else null.
 */
export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  created_at: string;
  versions: { service: string; node: string; sqlite: string; event_log_schema: number };
  log: { position: number; events: number; streams: number; heads_root: string };
  digest: SignedDigest | null;
  files: ManifestFile[];
  rebuilt_on_restore: string[];
  service_key_check: string;
  mac: string;
}

export type UnsealedManifest = Omit<BackupManifest, 'service_key_check' | 'mac'>;

function macKey(serviceKey: ServiceKeyMaterial): Buffer {
  return deriveKey(serviceKey, 'backup-manifests');
}

/** 16 hex digits of an HMAC under the manifests' key: names the key, reveals nothing of it. */
export function serviceKeyCheck(serviceKey: ServiceKeyMaterial): string {
  return createHmac('sha256', macKey(serviceKey)).update('service key check').digest('hex').slice(0, 16);
}

function macOf(serviceKey: ServiceKeyMaterial, fields: Omit<BackupManifest, 'mac'>): string {
  return createHmac('sha256', macKey(serviceKey)).update(JSON.stringify(fields)).digest('hex');
}

/** HMAC-SHA256 under the service key's `backup-manifests` key over everything but the MAC. */
export function sealManifest(fields: UnsealedManifest, serviceKey: ServiceKeyMaterial): BackupManifest {
  const checked = { ...fields, service_key_check: serviceKeyCheck(serviceKey) };
  return { ...checked, mac: macOf(serviceKey, checked) };
}

/** By its key check; the MAC is {@link manifestProblem}'s. */
export function madeUnder(manifest: Pick<BackupManifest, 'service_key_check'>, serviceKey: ServiceKeyMaterial): boolean {
  return manifest.service_key_check === serviceKeyCheck(serviceKey);
}

/** Made under another service key, or changed after it was written (its MAC does not hold); null when it holds. */
export function manifestProblem(manifest: BackupManifest, serviceKey: ServiceKeyMaterial): string | null {
  if (!madeUnder(manifest, serviceKey))
    return `${MANIFEST_FILE}: the backup was made under another service key (use the DATA_KEY_FILE of the service it was taken from)`;
  const { mac, ...fields } = manifest;
  const expected = Buffer.from(macOf(serviceKey, fields), 'hex');
  const given = Buffer.from(typeof mac === 'string' ? mac : '', 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return `${MANIFEST_FILE}: the manifest was changed after the backup was made (its MAC does not hold)`;
  return null;
}

/** 0600, whole under another name first, then renamed into place: a backup without one is unfinished. */
export function writeManifest(dir: string, manifest: BackupManifest): void {
  const file = join(dir, MANIFEST_FILE);
  writeFileSync(`${file}.draft`, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600, flush: true });
  renameSync(`${file}.draft`, file);
}

/** Or why there is none to read. */
export function readManifest(dir: string): BackupManifest | string {
  const file = join(dir, MANIFEST_FILE);
  if (!existsSync(file)) return `${MANIFEST_FILE} is missing: ${dir} is not a finished backup`;
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as BackupManifest;
    if (value?.format !== BACKUP_FORMAT || !Array.isArray(value.files) || typeof value.log !== 'object' || value.log === null)
      return `${MANIFEST_FILE} is not a backup manifest (${BACKUP_FORMAT})`;
    return value;
  } catch {
    return `${MANIFEST_FILE} is not JSON`;
  }
}

/** Read as a stream. */
export async function fileDigest(file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return { bytes: statSync(file).size, sha256: hash.digest('hex') };
}

/** package.json's `version`, found above this file, or `unknown`. */
export function serviceVersion(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'trainee-records-service') return pkg.version ?? 'unknown';
  }
  return 'unknown';
}
