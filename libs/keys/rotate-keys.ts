import { withNewVersion } from './keyring';
import type { KeyringFile } from './keyring-file';
import type { RotationPorts } from './ports';

/** Keys a rotation reads and wraps again at a time. */
export const REWRAP_BATCH = 500;

/**
 * What a rotation did: the version current at its end; the data keys wrapped again, under it
 * already and changed meanwhile (null where no personal data is sealed); the webhook secrets sealed
 * again and under it already; the previous version (the highest held below the current one, null
 * when none is), which the cadence keeps until the next rotation, and the versions it retires now,
 * every one held before the previous one (docs/operations.md "Rotating the service key").
 */
export interface RotationReport {
  current: number;
  dataKeys: { rewrapped: number; current: number; changed: number } | null;
  secrets: { resealed: number; current: number };
  retireNext: number[];
  previous: number | null;
}

/**
 * Rotates the service key (docs/operations.md "Rotating the service key"): adds a new random
 * version after the highest the keyring holds now, current from then on (`KeyringFile.change`:
 * under the keyring's lock, on the file as it is then, written durably), unless `resume`; then,
 * through the ports `withPorts` opens, wraps every data key and seals every webhook secret again
 * under the current version, each batch under the keyring's shared lock with the keyring read
 * again (a rotation made meanwhile by another process is followed, never undone). Safe to run
 * again (`resume`): what is under the current version already is left as it is. Throws
 * `KeyringBusy`, `KeyringError`, and what the ports throw (`DataKeyNotOpened` for a key no version
 * held opens).
 */
export async function rotateKeys(
  keyring: KeyringFile,
  withPorts: <T>(work: (ports: RotationPorts) => Promise<T>) => Promise<T>,
  options: { resume?: boolean } = {},
): Promise<RotationReport> {
  if (!options.resume) await keyring.change((now) => ({ next: withNewVersion(now), result: undefined }));
  const { dataKeys, secrets } = await withPorts(async (ports) => ({
    dataKeys: ports.dataKeys ? await ports.dataKeys.rewrapAll(REWRAP_BATCH) : null,
    secrets: await ports.secrets.resealSecrets(),
  }));
  const now = keyring.read();
  const older = [...now.versions.keys()].filter((v) => v < now.current).sort((a, b) => a - b);
  const previous = older.length > 0 ? older[older.length - 1] : null;
  return {
    current: now.current,
    dataKeys: dataKeys && { rewrapped: dataKeys.rewrapped, current: dataKeys.current, changed: dataKeys.changed },
    secrets: { resealed: secrets.resealed, current: secrets.current },
    retireNext: older.slice(0, -1),
    previous,
  };
}
