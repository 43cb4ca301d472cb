import { hkdfSync, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** The message never holds the file's content. */
export class KeyringError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyringError';
  }
}

/** For the AES-256 and HMAC-SHA256 keys derived from it. */
export const SERVICE_KEY_BYTES = 32;

/** Keys that name or sign, the same across rotations: derived from version 1, kept in the keyring once it is retired. */
export const PINNED_PURPOSES = ['change-feed-cursors', 'registration-guards', 'backup-manifests'] as const;
export type PinnedPurpose = (typeof PINNED_PURPOSES)[number];

/** Keys that wrap or seal: the current version's seals, every version held opens. */
export type VersionedPurpose = 'key-encryption' | 'webhook-secrets';

export type KeyPurpose = PinnedPurpose | VersionedPurpose;

/** The service keyring (docs/operations.md "The service key", "Rotating the service key"). */
export interface ServiceKeyring {
  /** The highest held: wraps and seals what is new. */
  current: number;
  versions: ReadonlyMap<number, Buffer>;
  /** Kept after version 1 was retired; empty while it is held. */
  pinned: ReadonlyMap<PinnedPurpose, Buffer>;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function hkdfOf(key: Buffer, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `trainee-records/${purpose}`, 32));
}

/**
 * One base64 line of 32 bytes (a key from before versions: version 1), or lines `<version> <base64>` and `<pinned purpose> <base64>`
 * with `#` comments. {@link KeyringError} otherwise, or without versions, or without version 1 and a pinned key; never quotes the text.
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

/** Pinned keys, then each version oldest first. */
export function formatKeyring(keyring: ServiceKeyring): string {
  const lines = [
    '# The service keyring (docs/operations.md "The service key"): "<version> <32 bytes in base64>" a line;',
    '# the highest version wraps new keys, the others still open what they wrapped.',
    ...[...keyring.pinned].map(([purpose, key]) => `${purpose} ${key.toString('base64')}`),
    ...[...keyring.versions.keys()].sort((a, b) => a - b).map((v) => `${v} ${keyring.versions.get(v)!.toString('base64')}`),
  ];
  return `${lines.join('\n')}\n`;
}

export function withNewVersion(keyring: ServiceKeyring): ServiceKeyring {
  const versions = new Map(keyring.versions);
  versions.set(keyring.current + 1, randomBytes(SERVICE_KEY_BYTES));
  return { current: keyring.current + 1, versions, pinned: keyring.pinned };
}

/** Retiring version 1 keeps the pinned keys derived from it. {@link KeyringError} for the current version or one not held. */
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

export function readKeyring(file: string, what: string): ServiceKeyring {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new KeyringError(`${what}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return parseKeyring(text, file, what);
}
