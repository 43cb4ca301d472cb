import { hkdfSync, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type AppConfig } from './config';

/** Bytes of the service key: 32, for AES-256 and HMAC-SHA256 keys derived from it. */
export const SERVICE_KEY_BYTES = 32;

/** The file the sandbox keeps its service key in when `DATA_KEY_FILE` is not set. */
export const SANDBOX_KEY_FILE = 'data-key';

/** What a key derived from the service key is for; each purpose gets its own key (see {@link deriveKey}). */
export type KeyPurpose = 'change-feed-cursors' | 'registration-guards' | 'webhook-secrets' | 'key-encryption' | 'backup-manifests';

/** The service key and, when this call made it (the sandbox's first start), the file it wrote. */
export interface ServiceKey {
  key: Buffer;
  created: string | null;
}

/**
 * The service's root secret (docs/operations.md "The service key"): 32 random bytes, base64 in the
 * file `DATA_KEY_FILE`. Without that variable (the sandbox only: `loadConfig` refuses production
 * without it), the key of `<DATA_DIR>/data-key`, made there (mode 0600) on first use, so cursors
 * stay valid across restarts; a second process starting at the same moment reads the one linked
 * in first. Throws {@link ConfigError} when the file cannot be read or holds anything but 32 bytes in
 * base64 (the message never holds the file's content), and when `DATA_KEY_FILE` is open to other
 * users than its owner (any group or other permission bit: docs/operations.md "File permissions").
 */
export function loadServiceKey(config: Pick<AppConfig, 'dataDir' | 'dataKeyFile'>): ServiceKey {
  if (config.dataKeyFile !== null) {
    refuseSharedKeyFile(config.dataKeyFile);
    return { key: readKey(config.dataKeyFile, 'DATA_KEY_FILE'), created: null };
  }
  const file = join(config.dataDir, SANDBOX_KEY_FILE);
  // Written whole under another name, then linked in place: another process never reads half a key.
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  try {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(draft, `${randomBytes(SERVICE_KEY_BYTES).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
    linkSync(draft, file);
    return { key: readKey(file, 'the sandbox key file'), created: file };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new ConfigError(`Cannot make the sandbox key file ${file}: ${(err as Error).message}`);
    return { key: readKey(file, 'the sandbox key file'), created: null };
  } finally {
    rmSync(draft, { force: true });
  }
}

/** {@link loadServiceKey}'s key, telling `logger` (a warning) when it made the sandbox's. */
export function serviceKeyOf(
  config: Pick<AppConfig, 'dataDir' | 'dataKeyFile'>,
  logger: { warn(context: object, message: string): void },
): Buffer {
  const { key, created } = loadServiceKey(config);
  if (created) logger.warn({ file: created }, 'made a service key for the sandbox; production needs DATA_KEY_FILE');
  return key;
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

function readKey(file: string, what: string): Buffer {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new ConfigError(`${what}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const key = Buffer.from(text, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || key.length !== SERVICE_KEY_BYTES) {
    throw new ConfigError(
      `${what}: ${file} must hold ${SERVICE_KEY_BYTES} random bytes in base64 (make one with: openssl rand -base64 32)`,
    );
  }
  return key;
}

/**
 * The key of one purpose, derived from the service key with HKDF-SHA256 (`node:crypto`; the
 * purpose as HKDF's info): keys of different purposes are independent, and none reveals the
 * service key. 32 bytes.
 */
export function deriveKey(serviceKey: Buffer, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', serviceKey, Buffer.alloc(0), `trainee-records/${purpose}`, 32));
}

/**
 * How the stores seal the trainees' personal data (docs/DESIGN.md "Personal data"): the service
 * key's `key-encryption` key, whether new events are sealed (`SEAL_PERSONAL_DATA`), and `newId`,
 * the ids of trainees still to be registered. For `openStores`' `personalData` option.
 */
export function personalDataOptions(
  config: Pick<AppConfig, 'sealPersonalData'>,
  serviceKey: Buffer,
  newId?: () => string,
): { kek: Buffer; sealOnAppend: boolean; newTraineeId?: () => string } {
  return { kek: deriveKey(serviceKey, 'key-encryption'), sealOnAppend: config.sealPersonalData, newTraineeId: newId };
}
