import { versionedKeys } from './derived-keys';
import type { VersionedPurpose } from './keyring';
import { KeyringFile } from './keyring-file';

/**
 * The keys of one versioned purpose (`key-encryption`, `webhook-secrets`) as the keyring file holds
 * them now, packed as {@link versionedKeys} packs them: how a running process learns a rotation
 * without a restart (docs/operations.md "Rotating the service key").
 */
export interface LiveKeys {
  /**
   * The keys the file holds now, read again: for opening what names a version not held. Throws
   * `KeyringError` when the file cannot be read.
   */
  now(): Buffer;
  /**
   * Runs `use` with the keys the file holds now, read under the keyring's shared lock: no version
   * can leave the keyring until `use` settles, so what `use` wraps and stores with them is counted
   * by any retirement (`KeyringFile.holding`). Throws `KeyringError` (nothing is wrapped then),
   * `KeyringBusy`, and what `use` throws.
   */
  holding<T>(use: (keys: Buffer) => Promise<T>): Promise<T>;
}

/** The {@link LiveKeys} of `purpose` in the keyring file `file` (a path, or the file as opened with its lock's wait). */
export function liveKeysOf(file: string | KeyringFile, purpose: VersionedPurpose): LiveKeys {
  const keyring = typeof file === 'string' ? new KeyringFile(file) : file;
  return {
    now: () => versionedKeys(keyring.read(), purpose),
    holding: (use) => keyring.holding((now) => use(versionedKeys(now, purpose))),
  };
}
