import { withoutVersion } from './keyring';
import type { KeyringFile } from './keyring-file';
import type { BackupNeed, RetirementPorts } from './ports';

/** Nothing was changed; the message is for the operator. */
export class RetirementRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RetirementRefused';
  }
}

/** `backups` null when no backup directory is configured. */
export interface RetirementReport {
  version: number;
  file: string;
  backups: { dir: string; broken: BackupNeed[] } | null;
}

/**
 * Retires `version` under the keyring's lock (docs/operations.md "Rotating the service key"). `KeyringError` for the current version or
 * one not held; {@link RetirementRefused} while a data key or webhook secret is wrapped under it (counted inside the lock), or a kept
 * backup needs it and `breakingBackups` does not name it. Throws `KeyringBusy` and what the ports throw.
 */
export function retireKeyVersion(
  keyring: KeyringFile,
  version: number,
  withPorts: <T>(work: (ports: RetirementPorts) => Promise<T>) => Promise<T>,
  options: { breakingBackups?: readonly string[] } = {},
): Promise<RetirementReport> {
  const named = new Set(options.breakingBackups ?? []);
  return withPorts((ports) =>
    keyring.change<RetirementReport>(async (now) => {
      const next = withoutVersion(now, version);
      const keys = ports.dataKeys ? ((await ports.dataKeys.versionCounts()).get(version) ?? 0) : 0;
      const secrets = (await ports.secrets.secretVersions()).get(version) ?? 0;
      if (keys > 0 || secrets > 0) {
        throw new RetirementRefused(
          `version ${version} still wraps ${keys} data keys and ${secrets} webhook secrets: run admin keys rotate --resume, then retire again`,
        );
      }
      if (ports.backups === null) return { next, result: { version, file: keyring.path, backups: null } };
      const broken = await ports.backups.needing(version);
      const unnamed = broken.filter((b) => !named.has(b.name));
      if (unnamed.length > 0) throw new RetirementRefused(backupsRefusal(version, ports.backups.dir, unnamed));
      return { next, result: { version, file: keyring.path, backups: { dir: ports.backups.dir, broken } } };
    }),
  );
}

function backupsRefusal(version: number, dir: string, needing: BackupNeed[]): string {
  const names = needing.map((b) => b.name);
  return (
    `version ${version} is still needed by ${needing.length === 1 ? '1 backup' : `${needing.length} backups`} in ${dir}, ` +
    `which would no longer open (backup verify, backup restore) once it is retired: ` +
    `${needing.map((b) => `${b.name} (${b.why})`).join(', ')}. Retire it once they are deleted, or name them to break them: ` +
    `admin keys retire ${version} --breaking-backups ${names.join(',')}`
  );
}
