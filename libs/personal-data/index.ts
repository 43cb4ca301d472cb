export { DATA_KEY_STORE, type DataKeyStore } from './data-key-store.port';
export { DataKeyNotOpened, DataKeys, DataKeyDestroyed, type DataKeysOptions } from './data-keys';
export { ERASED, isSealed, openFields, SEALED, SEALED_VALUE, sealFields, SealedValuesNotOpened, type SealedValues } from './sealed-fields';
export { DataKeyMissing, PersonalData, personalDataOf, rawEventStore, withPersonalData, type SealingPlan } from './personal-data';
