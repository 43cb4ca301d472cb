export { DATA_KEY_STORE, type DataKeyStore } from './data-key-store.port';
export { DataKeyNotOpened, DataKeys, TraineeErased } from './data-keys';
