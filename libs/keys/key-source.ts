import type { VersionedPurpose } from './keyring';
import { liveKeysOf, type LiveKeys } from './live-keys';

/**
 * The keys of one versioned purpose (`key-encryption`, `webhook-secrets`) as a store uses them
 * (docs/DESIGN.md "Personal data"): the keys it was given, packed as `versionedKeys` packs them,
 * and, where the service keyring's file is read again, the keys it holds now (a rotation learned
 * without a restart). A store is handed this, never the keyring's file; a thread of its own makes
 * the same source again from {@link KeySource.forThread} ({@link keySourceIn}).
 */
export interface KeySource {
  /** The keys given, packed (the current version first). */
  readonly keys: Buffer;
  /** The keys as the keyring holds them now, read again to open what names a version not held; null when they are fixed. */
  readonly live: LiveKeys | null;
  /** What a worker thread of this process is started with to make this source again ({@link keySourceIn}). */
  forThread(): KeySourceTicket;
}

/** A {@link KeySource} as a worker thread is started with it: structured-clonable, and read by libs/keys alone. */
export interface KeySourceTicket {
  readonly keySource: true;
}

/** What a {@link KeySourceTicket} holds, which only this file reads. */
interface Ticket extends KeySourceTicket {
  keys: Uint8Array;
  purpose: VersionedPurpose;
  keyring: string | null;
}

/**
 * The keys `keys` of `purpose` (packed versioned keys, or a lone 32-byte key), read again from the
 * service keyring's file `keyringFile` as it changes (`liveKeysOf`); null: the keys given are kept.
 */
export function keySourceOf(keys: Buffer, keyringFile: string | null, purpose: VersionedPurpose): KeySource {
  return {
    keys,
    live: keyringFile === null ? null : liveKeysOf(keyringFile, purpose),
    forThread: (): Ticket => ({ keySource: true, keys: new Uint8Array(keys), purpose, keyring: keyringFile }),
  };
}

/** The keys `keys`, fixed: no keyring file is read (tests, bulk loads, a lone key). */
export function fixedKeySource(keys: Buffer): KeySource {
  return keySourceOf(keys, null, 'key-encryption');
}

/** The {@link KeySource} a worker thread was started with (`KeySource.forThread` in the thread that started it). */
export function keySourceIn(ticket: KeySourceTicket): KeySource {
  const { keys, keyring, purpose } = ticket as Ticket;
  return keySourceOf(Buffer.from(keys), keyring, purpose);
}
