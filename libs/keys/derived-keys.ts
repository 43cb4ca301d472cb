import { hkdfOf, PINNED_PURPOSES, type KeyPurpose, type PinnedPurpose, type ServiceKeyring, type VersionedPurpose } from './keyring';
import { packVersionedKeys } from './versioned-keys';

/** The service keyring, or a lone 32-byte key (version 1 only: tests, and keys from before versions). */
export type ServiceKeyMaterial = Buffer | ServiceKeyring;

/**
 * The 32-byte key of one purpose, HKDF-SHA256 with the purpose as info (docs/DESIGN.md "Who holds what"): a pinned purpose's from
 * version 1 (or kept from it once retired), a versioned purpose's from the current version, which seals.
 */
export function deriveKey(serviceKey: ServiceKeyMaterial, purpose: KeyPurpose): Buffer {
  if (Buffer.isBuffer(serviceKey)) return hkdfOf(serviceKey, purpose);
  if ((PINNED_PURPOSES as readonly string[]).includes(purpose)) {
    return serviceKey.pinned.get(purpose as PinnedPurpose) ?? hkdfOf(serviceKey.versions.get(1)!, purpose);
  }
  return hkdfOf(serviceKey.versions.get(serviceKey.current)!, purpose);
}

/** A versioned purpose's keys for every version held, packed current first: what `DataKeys` and `SealedSecrets` take. */
export function versionedKeys(serviceKey: ServiceKeyMaterial, purpose: VersionedPurpose): Buffer {
  if (Buffer.isBuffer(serviceKey)) return packVersionedKeys({ current: 1, keys: new Map([[1, hkdfOf(serviceKey, purpose)]]) });
  const keys = new Map([...serviceKey.versions].map(([v, key]) => [v, hkdfOf(key, purpose)]));
  return packVersionedKeys({ current: serviceKey.current, keys });
}
