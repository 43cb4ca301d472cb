import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { digestSignatureHolds, keyFingerprint, type TrustedKey } from '@app/audit';
import { versionedKeys, type ServiceKeyMaterial } from '@app/runtime/process';
import type { BackupFiles, LogCopy, SealedCheck } from './backup-files.port';
import { fileDigest, manifestProblem, readManifest, type BackupManifest, type ManifestFile } from './manifest';

/** What `backup verify` found (docs/operations.md "Backups and restore"): null where not read or checked; each problem a sentence. */
export interface BackupVerification {
  manifest: BackupManifest | null;
  log: LogCopy | null;
  sealed: SealedCheck | null;
  problems: string[];
}

/**
 * Checks the backup in `dir`, reading only: the manifest's MAC and key, then its files ({@link checkBackupFiles}); a signed digest held
 * to `trusted` where given (docs/DESIGN.md "Who holds what").
 */
export async function verifyBackup(
  files: BackupFiles,
  dir: string,
  serviceKey: ServiceKeyMaterial,
  onEvents?: (events: number) => void,
  trusted: TrustedKey | null = null,
): Promise<BackupVerification> {
  const read = readManifest(dir);
  if (typeof read === 'string') return { manifest: null, log: null, sealed: null, problems: [read] };
  const sealedProblem = manifestProblem(read, serviceKey);
  if (sealedProblem !== null) return { manifest: read, log: null, sealed: null, problems: [sealedProblem] };
  return checkBackupFiles(files, dir, read, serviceKey, onEvents, trusted);
}

/**
 * Checks the files in `dir` (a backup, or a restore's copies) against `manifest`, already held to `serviceKey`: sizes and SHA-256s,
 * the log copy's chains and heads against the manifest's root and signed digest, every sealed event opened or counted as erased.
 * A file whose size or hash fails is never opened (its hash failure is the problem reported).
 */
export async function checkBackupFiles(
  files: BackupFiles,
  dir: string,
  manifest: BackupManifest,
  serviceKey: ServiceKeyMaterial,
  onEvents?: (events: number) => void,
  trusted: TrustedKey | null = null,
): Promise<BackupVerification> {
  const problems: string[] = [];
  const failed = new Set<string>();
  for (const f of manifest.files) {
    const problem = await fileProblem(join(dir, f.name), f);
    if (problem === null) continue;
    problems.push(problem);
    failed.add(f.name);
  }
  const { logFile, keysFile } = files;
  if (!manifest.files.some((f) => f.name === logFile)) problems.push(`the manifest names no event log (${logFile})`);
  if (failed.has(logFile) || !existsSync(join(dir, logFile))) return { manifest, log: null, sealed: null, problems };
  let log: LogCopy | null = null;
  let sealed: SealedCheck | null = null;
  try {
    log = await files.checkLogCopy(dir, onEvents);
    problems.push(...log.faults.map((f) => `${logFile}: ${f}`));
    problems.push(...headsProblems(logFile, manifest, log, trusted));
    if (!failed.has(keysFile)) {
      sealed = await files.openSealedCopy(dir, versionedKeys(serviceKey, 'key-encryption'));
      problems.push(...sealed.problems);
    }
  } catch (err) {
    problems.push(`${logFile} or ${keysFile} cannot be read as a database: ${err instanceof Error ? err.message : String(err)}`);
  }
  return { manifest, log, sealed, problems };
}

/** Missing, another size, another SHA-256; null when it holds. */
async function fileProblem(file: string, f: ManifestFile): Promise<string | null> {
  if (!existsSync(file)) return `${f.name} is missing`;
  const got = await fileDigest(file);
  if (got.bytes !== f.bytes) return `${f.name}: ${got.bytes} bytes, the manifest says ${f.bytes} (torn or changed)`;
  if (got.sha256 !== f.sha256) return `${f.name}: its SHA-256 is not the manifest's (a byte changed since the backup)`;
  return null;
}

/** Against the manifest's root and signed digest. */
function headsProblems(logFile: string, manifest: BackupManifest, log: LogCopy, trusted: TrustedKey | null): string[] {
  const problems: string[] = [];
  const said = manifest.log;
  if (log.position !== said.position || log.events !== said.events || log.streams !== said.streams)
    problems.push(
      `${logFile}: ${log.events} events in ${log.streams} streams up to position ${log.position}; ` +
        `the manifest says ${said.events} in ${said.streams} up to ${said.position}`,
    );
  else if (log.headsRoot !== said.heads_root) problems.push(`${logFile}: the streams' heads are not those the manifest records`);
  const digest = manifest.digest;
  if (digest && !digestSignatureHolds(digest)) problems.push(`manifest.json: its signed digest's signature does not hold`);
  else if (digest && (digest.root !== said.heads_root || digest.position !== said.position || digest.streams !== said.streams))
    problems.push(`manifest.json: its signed digest is not of the log it records`);
  else if (digest && trusted && keyFingerprint(digest.public_key) !== trusted.fingerprint)
    problems.push(
      `manifest.json: its signed digest was signed by key ${keyFingerprint(digest.public_key)}, not ${trusted.name} (${trusted.fingerprint})`,
    );
  return problems;
}

/** Its position, what was checked, the sealed events opened and erased. */
export function verificationSummary(dir: string, v: BackupVerification): string {
  const log = v.log!;
  const sealed = v.sealed!;
  return (
    `backup ${dir} of ${v.manifest!.created_at} holds: ${v.manifest!.files.length} files as its manifest says; ` +
    `${log.events} events in ${log.streams} streams up to position ${log.position}, every chain holds` +
    `${v.manifest!.digest ? ' and its signed digest too' : ''}; ${sealed.opened} sealed events open with its keys, ` +
    `${sealed.erased} are of erased trainees`
  );
}
