import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  KeyringError,
  KeyringFile,
  readKeyring,
  liveKeysOf,
  SERVICE_KEY_BYTES,
  versionedKeys,
  type LiveKeys,
  type ServiceKeyMaterial,
  type ServiceKeyring,
  type VersionedPurpose,
} from '@app/keys';
import { ConfigError, type AppConfig } from './config';

export { deriveKey, SERVICE_KEY_BYTES, versionedKeys, type KeyPurpose, type ServiceKeyMaterial, type ServiceKeyring } from '@app/keys';

/** The file the sandbox keeps its service key in when `DATA_KEY_FILE` is not set. */
export const SANDBOX_KEY_FILE = 'data-key';

/**
 * The files of `DATA_DIR` that hold what a service key sealed, wrapped or named (the log's sealed
 * values, the wrapped data keys, the kept state's sealed webhook secrets): a data dir holding any
 * of them was written under a key, and a new one would open none of it.
 */
export const KEYED_FILES: readonly string[] = ['events.sqlite', 'keys.sqlite', 'state.sqlite'];

/** The service keyring, its current version's key, its file, and that file again when this call made it (the sandbox's first start). */
export interface ServiceKey {
  /** The current version's key. */
  key: Buffer;
  keyring: ServiceKeyring;
  file: string;
  created: string | null;
}

/**
 * The service's root secret (docs/operations.md "The service key"): a keyring of 32-byte keys,
 * base64, in the file `DATA_KEY_FILE` (one bare key is version 1; see `parseKeyring`). Without
 * that variable (the sandbox only: `loadConfig` refuses production without it), the key of
 * `<DATA_DIR>/data-key`: read when the file is there, writing nothing (a full or read-only disk
 * does not stop a sandbox that has its key); else made there (mode 0600, durably:
 * `KeyringFile.createIfAbsent`), so cursors stay valid across restarts, and a second process
 * starting at the same moment reads the one made first. Never made in a data dir that holds data
 * already ({@link KEYED_FILES}: a restored or copied one whose key was left behind): that throws
 * {@link ConfigError} naming `DATA_KEY_FILE`, and nothing is written. Throws {@link ConfigError}
 * too when the file cannot be made, cannot be read or is not a keyring of 32-byte keys in base64
 * (the message never holds the file's content), and when `DATA_KEY_FILE` is open to other users
 * than its owner (any group or other permission bit: docs/operations.md "File permissions").
 */
export function loadServiceKey(config: Pick<AppConfig, 'dataDir' | 'dataKeyFile'>): ServiceKey {
  if (config.dataKeyFile !== null) {
    refuseSharedKeyFile(config.dataKeyFile);
    return serviceKeyIn(config.dataKeyFile, 'DATA_KEY_FILE', null);
  }
  const file = keyringFileOf(config);
  // A key file is only ever linked in whole (`createIfAbsent`), so one that exists is complete.
  if (existsSync(file)) return serviceKeyIn(file, 'the sandbox key file', null);
  refuseKeyOverData(config.dataDir, file);
  let made: boolean;
  try {
    made = new KeyringFile(file).createIfAbsent(`${randomBytes(SERVICE_KEY_BYTES).toString('base64')}\n`);
  } catch (err) {
    throw new ConfigError(`Cannot make the sandbox key file ${file}: ${(err as Error).message}`);
  }
  return serviceKeyIn(file, 'the sandbox key file', made ? file : null);
}

/**
 * Throws {@link ConfigError} when `dataDir` holds any of {@link KEYED_FILES} and `file`, the
 * sandbox's key, is still missing (a process that made the key and then its stores since the
 * first look is not refused: the key is looked for again after the data).
 */
function refuseKeyOverData(dataDir: string, file: string): void {
  const held = KEYED_FILES.filter((f) => existsSync(join(dataDir, f)));
  if (held.length === 0 || existsSync(file)) return;
  throw new ConfigError(
    `${dataDir} holds data (${held.join(', ')}) but no service key: set DATA_KEY_FILE to the key file it was written under ` +
      `(for a restored data dir, the one its backup was made under; in the sandbox, the data-key of the data dir it came from)`,
  );
}

function serviceKeyIn(file: string, what: string, created: string | null): ServiceKey {
  let keyring: ServiceKeyring;
  try {
    keyring = readKeyring(file, what);
  } catch (err) {
    throw err instanceof KeyringError ? new ConfigError(err.message) : err;
  }
  return { key: keyring.versions.get(keyring.current)!, keyring, file, created };
}

/** {@link loadServiceKey}'s keyring, telling `logger` (a warning) when it made the sandbox's. */
export function serviceKeyOf(
  config: Pick<AppConfig, 'dataDir' | 'dataKeyFile'>,
  logger: { warn(context: object, message: string): void },
): ServiceKeyring {
  const { keyring, created } = loadServiceKey(config);
  if (created) logger.warn({ file: created }, 'made a service key for the sandbox; production needs DATA_KEY_FILE');
  return keyring;
}

/**
 * Throws {@link ConfigError} when the key file `file` grants any permission to its group or to
 * other users, naming the file, its mode and the fix; a file that cannot be read is left to
 * `readKey` to refuse.
 */
function refuseSharedKeyFile(file: string): void {
  let mode: number;
  try {
    mode = statSync(file).mode & 0o777;
  } catch {
    return;
  }
  if ((mode & 0o077) !== 0) {
    throw new ConfigError(
      `DATA_KEY_FILE: ${file} is open to other users (mode ${mode.toString(8).padStart(4, '0')}); make it the service's user's only: chmod 600 ${file}`,
    );
  }
}

/** The file {@link loadServiceKey} reads the keyring from: `DATA_KEY_FILE`, else the sandbox's `<DATA_DIR>/data-key`. */
export function keyringFileOf(config: Pick<AppConfig, 'dataDir' | 'dataKeyFile'>): string {
  return config.dataKeyFile ?? join(config.dataDir, SANDBOX_KEY_FILE);
}

/**
 * The keys of `purpose` as the keyring file of `config` holds them now (`liveKeysOf`, libs/keys):
 * how a running process learns a rotation without a restart (docs/operations.md "Rotating the
 * service key").
 */
export function currentKeysOf(config: Pick<AppConfig, 'dataDir' | 'dataKeyFile'>, purpose: VersionedPurpose): LiveKeys {
  return liveKeysOf(keyringFileOf(config), purpose);
}

/**
 * How the stores seal the trainees' personal data (docs/DESIGN.md "Personal data"): the service
 * key's `key-encryption` keys of every version held, whether new events are sealed
 * (`SEAL_PERSONAL_DATA`), `newId`, the ids of trainees still to be registered, and, when `config`
 * names where the keyring is kept, that file, read again to learn a rotation and before every new
 * key is wrapped (`liveKeysOf`). For `openStores`' `personalData` option.
 */
export function personalDataOptions(
  config: Pick<AppConfig, 'sealPersonalData'> & Partial<Pick<AppConfig, 'dataDir' | 'dataKeyFile'>>,
  serviceKey: ServiceKeyMaterial,
  newId?: () => string,
): { kek: Buffer; sealOnAppend: boolean; newTraineeId?: () => string; keyringFile: string | null } {
  const keyringFile =
    config.dataDir === undefined ? null : keyringFileOf({ dataDir: config.dataDir, dataKeyFile: config.dataKeyFile ?? null });
  return { kek: versionedKeys(serviceKey, 'key-encryption'), sealOnAppend: config.sealPersonalData, newTraineeId: newId, keyringFile };
}
