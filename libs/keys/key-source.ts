import type { VersionedPurpose } from './keyring';
import { liveKeysOf, type LiveKeys } from './live-keys';

/**
 * The keys of one versioned purpose as a store uses them (docs/DESIGN.md "Personal data"): those given, packed, and where the keyring
 * file is read again, those it holds now (a rotation learned without a restart). A store gets this, never the keyring's file.
 */
export interface KeySource {
  readonly keys: Buffer;
  /** Read again to open what names a version not held; null when fixed. */
  readonly live: LiveKeys | null;
  /** What a worker thread is started with to make this source again ({@link keySourceIn}). */
  forThread(): KeySourceTicket;
}

/** Structured-clonable, read by libs/keys alone. */
export interface KeySourceTicket {
  readonly keySource: true;
}

interface Ticket extends KeySourceTicket {
  keys: Uint8Array;
  purpose: VersionedPurpose;
  keyring: string | null;
}

/** `keys` of `purpose` (packed, or a lone 32-byte key), read again from `keyringFile` as it changes; null: the keys given are kept. */
export function keySourceOf(keys: Buffer, keyringFile: string | null, purpose: VersionedPurpose): KeySource {
  return {
    keys,
    live: keyringFile === null ? null : liveKeysOf(keyringFile, purpose),
    forThread: (): Ticket => ({ keySource: true, keys: new Uint8Array(keys), purpose, keyring: keyringFile }),
  };
}

/** No keyring file is read (tests, bulk loads, a lone key). */
export function fixedKeySource(keys: Buffer): KeySource {
  return keySourceOf(keys, null, 'key-encryption');
}

/** The source `KeySource.forThread` made in the thread that started this one. */
export function keySourceIn(ticket: KeySourceTicket): KeySource {
  const { keys, keyring, purpose } = ticket as Ticket;
  return keySourceOf(Buffer.from(keys), keyring, purpose);
}
