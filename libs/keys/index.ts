export { deriveKey, versionedKeys, type ServiceKeyMaterial } from './derived-keys';
export {
  formatKeyring,
  hkdfOf,
  KeyringError,
  parseKeyring,
  PINNED_PURPOSES,
  readKeyring,
  SERVICE_KEY_BYTES,
  withNewVersion,
  withoutVersion,
  type KeyPurpose,
  type PinnedPurpose,
  type ServiceKeyring,
  type VersionedPurpose,
} from './keyring';
export { KeyringFile, writeDurably, type KeyringChange } from './keyring-file';
export { KEYRING_LOCK_WAIT_MS, KeyringBusy, lockFileOf } from './keyring-lock';
export { fixedKeySource, keySourceIn, keySourceOf, type KeySource, type KeySourceTicket } from './key-source';
export { liveKeysOf, type LiveKeys } from './live-keys';
export type { BackupNeed, KeptBackups, RetirementPorts, RotationPorts, SealedWebhookSecrets, WrappedDataKeys } from './ports';
export { retireKeyVersion, RetirementRefused, type RetirementReport } from './retire-key-version';
export { REWRAP_BATCH, rotateKeys, type RotationReport } from './rotate-keys';
export { packVersionedKeys, unpackVersionedKeys, type VersionedKeys } from './versioned-keys';
