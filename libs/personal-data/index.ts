export { DATA_KEY_STORE, type DataKeyStore } from './data-key-store.port';
export { DataKeyNotForgotten, ErasureUnfinished, ReadStoreNotForgotten } from './erasure-unfinished';
export { DataKeyNotOpened, DataKeys, DataKeyDestroyed, wrappedKeyVersion, type DataKeysOptions } from './data-keys';
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
