import { hkdfOf, PINNED_PURPOSES, type KeyPurpose, type PinnedPurpose, type ServiceKeyring, type VersionedPurpose } from './keyring';
import { packVersionedKeys } from './versioned-keys';

/** The service keyring, or a lone 32-byte key (version 1 only: tests, and keys from before versions). */
export type ServiceKeyMaterial = Buffer | ServiceKeyring;

/**
 * The key of one purpose, derived with HKDF-SHA256 (`node:crypto`; the purpose as HKDF's info):
 * keys of different purposes are independent, and none reveals the service key. 32 bytes. From a
 * keyring (docs/DESIGN.md "Who holds what"): a pinned purpose's key (cursors, registration guards,
 * backup manifests) comes from version 1, or the key kept from it once retired; a versioned
 * purpose's key (key encryption, webhook secrets) from the current version, which seals (open with
 * {@link versionedKeys}). A lone 32-byte key is version 1 (tests, and keys from before versions).
 */
export function deriveKey(serviceKey: ServiceKeyMaterial, purpose: KeyPurpose): Buffer {
  if (Buffer.isBuffer(serviceKey)) return hkdfOf(serviceKey, purpose);
  if ((PINNED_PURPOSES as readonly string[]).includes(purpose)) {
    return serviceKey.pinned.get(purpose as PinnedPurpose) ?? hkdfOf(serviceKey.versions.get(1)!, purpose);
  }
  return hkdfOf(serviceKey.versions.get(serviceKey.current)!, purpose);
}

/**
 * The keys of a versioned purpose for every version the keyring holds, packed with the current
 * first ({@link packVersionedKeys}): what `DataKeys` and `SealedSecrets` take. A lone 32-byte key
 * gives version 1 only.
 */
export function versionedKeys(serviceKey: ServiceKeyMaterial, purpose: VersionedPurpose): Buffer {
  if (Buffer.isBuffer(serviceKey)) return packVersionedKeys({ current: 1, keys: new Map([[1, hkdfOf(serviceKey, purpose)]]) });
  const keys = new Map([...serviceKey.versions].map(([v, key]) => [v, hkdfOf(key, purpose)]));
  return packVersionedKeys({ current: serviceKey.current, keys });
}
