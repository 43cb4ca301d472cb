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

/** In `DATA_DIR`, when `DATA_KEY_FILE` is not set. */
export const SANDBOX_KEY_FILE = 'data-key';

/** Files that hold what a service key sealed, wrapped or named: a data dir holding any was written under a key a new one would not open. */
export const KEYED_FILES: readonly string[] = ['events.sqlite', 'keys.sqlite', 'state.sqlite'];

/** `made`: the file again when this call made it (the sandbox's first start). */
export interface ServiceKey {
  key: Buffer;
  keyring: ServiceKeyring;
  file: string;
  created: string | null;
}

/**
 * The service keyring (docs/operations.md "The service key") from `DATA_KEY_FILE`, or in the sandbox `<DATA_DIR>/data-key`, made
 * durably on first start (one of processes starting together makes it). {@link ConfigError} (never quoting the file) when the key would
 * be made in a data dir holding data ({@link KEYED_FILES}: its key was left behind), the file cannot be made or read or is no keyring,
 * or `DATA_KEY_FILE` is open to other users (docs/operations.md "File permissions").
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

/** The key is looked for again after the data, so a process that made the key and then its stores since the first look is not refused. */
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
    if (!(err instanceof KeyringError)) throw err;
    const hint =
      what === 'DATA_KEY_FILE' && !existsSync(file) ? ': make it once with admin keys init (docs/operations.md "The service key")' : '';
    throw new ConfigError(`${err.message}${hint}`);
  }
  return { key: keyring.versions.get(keyring.current)!, keyring, file, created };
}

/** Warns `logger` when it made the sandbox's. */
export function serviceKeyOf(
  config: Pick<AppConfig, 'dataDir' | 'dataKeyFile'>,
  logger: { warn(context: object, message: string): void },
): ServiceKeyring {
  const { keyring, created } = loadServiceKey(config);
  if (created) logger.warn({ file: created }, 'made a service key for the sandbox; production needs DATA_KEY_FILE');
  return keyring;
}

/** Names the file, its mode and the fix; a file that cannot be read is left to `readKey`. */
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

export function keyringFileOf(config: Pick<AppConfig, 'dataDir' | 'dataKeyFile'>): string {
  return config.dataKeyFile ?? join(config.dataDir, SANDBOX_KEY_FILE);
}

/** As the file holds them now: how a process learns a rotation without a restart (docs/operations.md "Rotating the service key"). */
export function currentKeysOf(config: Pick<AppConfig, 'dataDir' | 'dataKeyFile'>, purpose: VersionedPurpose): LiveKeys {
  return liveKeysOf(keyringFileOf(config), purpose);
}

/** `openStores`' `personalData` option (docs/DESIGN.md "Personal data"); a configured keyring file is read again before every wrap. */
export function personalDataOptions(
  config: Pick<AppConfig, 'sealPersonalData'> & Partial<Pick<AppConfig, 'dataDir' | 'dataKeyFile'>>,
  serviceKey: ServiceKeyMaterial,
  newId?: () => string,
): { kek: Buffer; sealOnAppend: boolean; newTraineeId?: () => string; keyringFile: string | null } {
  const keyringFile =
    config.dataDir === undefined ? null : keyringFileOf({ dataDir: config.dataDir, dataKeyFile: config.dataKeyFile ?? null });
  return { kek: versionedKeys(serviceKey, 'key-encryption'), sealOnAppend: config.sealPersonalData, newTraineeId: newId, keyringFile };
}
