export { DATA_KEY_STORE, type DataKeyStore } from './data-key-store.port';
export { DataKeyNotForgotten, ErasureUnfinished, ReadStoreNotForgotten } from './erasure-unfinished';
export { DataKeyNotOpened, DataKeys, DataKeyDestroyed, wrappedKeyVersion, type DataKeysOptions } from './data-keys';
export { packVersionedKeys, unpackVersionedKeys, type VersionedKeys } from './versioned-keys';
export {
  BOX_VERSION,
  boxAad,
  ERASED,
  isSealed,
  openFields,
  openFieldsWith,
  SEALED,
  SEALED_VALUE,
  sealFields,
  SealedValuesNotOpened,
  type BoxBinding,
  type SealedValues,
} from './sealed-fields';
export { DataKeyMissing, PersonalData, withPersonalData, type PersonalDataOptions, type SealingPlan } from './personal-data';
export {
  formatKeyring,
  hkdfOf,
  keyEncryptionKeysIn,
  KeyringError,
  parseKeyring,
  PINNED_PURPOSES,
  readKeyring,
  reloaderOf,
  SERVICE_KEY_BYTES,
  withNewVersion,
  withoutVersion,
  writeKeyring,
  type KeyPurpose,
  type PinnedPurpose,
  type ServiceKeyring,
  type VersionedPurpose,
} from './keyring';
