import { versionedKeys } from './derived-keys';
import type { VersionedPurpose } from './keyring';
import { KeyringFile } from './keyring-file';

/** A versioned purpose's keys as the keyring file holds them now: how a process learns a rotation without a restart. */
export interface LiveKeys {
  /** Read again, to open what names a version not held. Throws `KeyringError`. */
  now(): Buffer;
  /** `KeyringFile.holding` with these keys: what `use` wraps is counted by any retirement. */
  holding<T>(use: (keys: Buffer) => Promise<T>): Promise<T>;
}

/** `file`: a path, or the file as opened with its lock's wait. */
export function liveKeysOf(file: string | KeyringFile, purpose: VersionedPurpose): LiveKeys {
  const keyring = typeof file === 'string' ? new KeyringFile(file) : file;
  return {
    now: () => versionedKeys(keyring.read(), purpose),
    holding: (use) => keyring.holding((now) => use(versionedKeys(now, purpose))),
  };
}
