import { withoutVersion } from './keyring';
import type { KeyringFile } from './keyring-file';
import type { BackupNeed, RetirementPorts } from './ports';

/** A retirement refused, and why, in one sentence for the operator: nothing was changed. */
export class RetirementRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RetirementRefused';
  }
}

/**
 * What a retirement did: the version retired, the keyring file it left, and the backups looked at:
 * null when no backup directory is configured (none could be checked), else the directory and the
 * backups in it that no longer open, each named by the operator (`breakingBackups`).
 */
export interface RetirementReport {
  version: number;
  file: string;
  backups: { dir: string; broken: BackupNeed[] } | null;
}

/**
 * Retires `version` (docs/operations.md "Rotating the service key"): takes its key out of the
 * keyring (retiring version 1 keeps the keys derived from it that name and sign: `withoutVersion`).
 * All under the keyring's lock, on the file as it is then (`KeyringFile.change`), with the ports
 * `withPorts` opens: refused when the keyring holds no such version or it is current
 * (`KeyringError`); when a data key or an endpoint's current secret is still wrapped under it,
 * counted inside the lock, where no process can store one under it (`LiveKeys.holding`); and when
 * a kept backup would no longer open without it, unless `breakingBackups` names each such backup
 * (by its directory's name) ({@link RetirementRefused}, naming them). Throws `KeyringBusy` and what
 * the ports throw.
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
