import { withNewVersion } from './keyring';
import type { KeyringFile } from './keyring-file';
import type { RotationPorts } from './ports';

export const REWRAP_BATCH = 500;

/** `previous`: the highest version below the current, kept until the next rotation; `retireNext`: every one before it. */
export interface RotationReport {
  current: number;
  dataKeys: { rewrapped: number; current: number; changed: number } | null;
  secrets: { resealed: number; current: number };
  retireNext: number[];
  previous: number | null;
}

/**
 * Adds a new current version (unless `resume`), then wraps every data key and webhook secret again under the current version, each
 * batch under the shared lock with the keyring read again (docs/operations.md "Rotating the service key"). Safe to resume.
 * Throws `KeyringBusy`, `KeyringError`, and what the ports throw (`DataKeyNotOpened`).
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
