import { hkdfSync, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** A keyring file that cannot be read or is not a keyring (the message never holds the file's content). */
export class KeyringError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyringError';
  }
}

/** Bytes of a service key version: 32, for AES-256 and HMAC-SHA256 keys derived from it. */
export const SERVICE_KEY_BYTES = 32;

/**
 * The purposes whose keys name or sign and stay the same across rotations (docs/DESIGN.md "Who holds
 * what"): derived from version 1, and kept as derived keys in the keyring once version 1 is retired.
 */
export const PINNED_PURPOSES = ['change-feed-cursors', 'registration-guards', 'backup-manifests'] as const;
export type PinnedPurpose = (typeof PINNED_PURPOSES)[number];

/** The purposes whose keys wrap or seal: the current version's key seals, every version held opens. */
export type VersionedPurpose = 'key-encryption' | 'webhook-secrets';

/** What a key derived from the service key is for; each purpose gets its own key (`deriveKey`). */
export type KeyPurpose = PinnedPurpose | VersionedPurpose;

/**
 * The service keyring (docs/operations.md "The service key", "Rotating the service key"): the key
 * of each version still held, the highest version current, and the pinned purposes' keys kept from
 * a retired version 1.
 */
export interface ServiceKeyring {
  /** The version that wraps and seals what is new: the highest held. */
  current: number;
  /** Each version held, 32 bytes each. */
  versions: ReadonlyMap<number, Buffer>;
  /** Keys of {@link PINNED_PURPOSES} kept after version 1 was retired (empty while it is held). */
  pinned: ReadonlyMap<PinnedPurpose, Buffer>;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** HKDF-SHA256 of `key` for `purpose` (the purpose as HKDF's info), 32 bytes. */
export function hkdfOf(key: Buffer, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `trainee-records/${purpose}`, 32));
}

/**
 * The keyring in the text of `file` (`what` names it in errors; the text itself is never quoted):
 * either one line of 32 bytes in base64 (a key from before versions: version 1), or lines
 * `<version> <base64>` and `<pinned purpose> <base64>`, with `#` comments and blank lines. Throws
 * {@link KeyringError} for anything else, for no version at all, and for a keyring without version
 * 1 that lacks a pinned purpose's key.
 */
export function parseKeyring(text: string, file: string, what: string): ServiceKeyring {
  const bad = (detail: string) =>
    new KeyringError(`${what}: ${file} ${detail} (make a key with: openssl rand -base64 32; see docs/operations.md "The service key")`);
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  if (lines.length === 1 && !/\s/.test(lines[0])) return { current: 1, versions: new Map([[1, keyOf(lines[0], bad)]]), pinned: new Map() };
  const versions = new Map<number, Buffer>();
  const pinned = new Map<PinnedPurpose, Buffer>();
  for (const [n, line] of lines.entries()) {
    const [name, value, ...rest] = line.split(/\s+/);
    if (value === undefined || rest.length > 0) throw bad(`line ${n + 1} is not "<version> <key>"`);
    if (/^[1-9]\d{0,8}$/.test(name) && !versions.has(Number(name))) versions.set(Number(name), keyOf(value, bad));
    else if ((PINNED_PURPOSES as readonly string[]).includes(name) && !pinned.has(name as PinnedPurpose))
      pinned.set(name as PinnedPurpose, keyOf(value, bad));
    else throw bad(`line ${n + 1} names no version or purpose, or one named before`);
  }
  if (versions.size === 0) throw bad(`must hold ${SERVICE_KEY_BYTES} random bytes in base64`);
  if (!versions.has(1) && pinned.size !== PINNED_PURPOSES.length) throw bad('holds neither version 1 nor the keys kept from it');
  return { current: Math.max(...versions.keys()), versions, pinned };
}

function keyOf(text: string, bad: (detail: string) => KeyringError): Buffer {
  const key = Buffer.from(text, 'base64');
  if (!BASE64.test(text) || key.length !== SERVICE_KEY_BYTES) throw bad(`must hold ${SERVICE_KEY_BYTES} random bytes in base64`);
  return key;
}

/** The keyring as its file holds it: a comment, the pinned keys, then each version, oldest first. */
export function formatKeyring(keyring: ServiceKeyring): string {
  const lines = [
    '# The service keyring (docs/operations.md "The service key"): "<version> <32 bytes in base64>" a line;',
    '# the highest version wraps new keys, the others still open what they wrapped.',
    ...[...keyring.pinned].map(([purpose, key]) => `${purpose} ${key.toString('base64')}`),
    ...[...keyring.versions.keys()].sort((a, b) => a - b).map((v) => `${v} ${keyring.versions.get(v)!.toString('base64')}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** `keyring` with a new random version after the highest, which becomes current. */
export function withNewVersion(keyring: ServiceKeyring): ServiceKeyring {
  const versions = new Map(keyring.versions);
  versions.set(keyring.current + 1, randomBytes(SERVICE_KEY_BYTES));
  return { current: keyring.current + 1, versions, pinned: keyring.pinned };
}

/**
 * `keyring` without `version`; retiring version 1 keeps the pinned purposes' keys derived from it.
 * Throws {@link KeyringError} for the current version or one not held.
 */
export function withoutVersion(keyring: ServiceKeyring, version: number): ServiceKeyring {
  if (!keyring.versions.has(version)) throw new KeyringError(`the keyring holds no version ${version}`);
  if (version === keyring.current) throw new KeyringError(`version ${version} is current: rotate to a new version before retiring it`);
  const versions = new Map(keyring.versions);
  versions.delete(version);
  const pinned = new Map(keyring.pinned);
  if (version === 1)
    for (const purpose of PINNED_PURPOSES) if (!pinned.has(purpose)) pinned.set(purpose, hkdfOf(keyring.versions.get(1)!, purpose));
  return { current: keyring.current, versions, pinned };
}

/** Reads the keyring file `file` (see {@link parseKeyring}). */
export function readKeyring(file: string, what: string): ServiceKeyring {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new KeyringError(`${what}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return parseKeyring(text, file, what);
}
