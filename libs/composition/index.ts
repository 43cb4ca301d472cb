export { BackgroundWork, openBackgroundWork } from './background-work';
export { historySourcesOf } from './audit-log';
export { backupFiles, embeddedBackups, embeddedLog, storeConfigOf, type EmbeddedLog } from './embedded-tools';
export { erasurePortsOf } from './erasure-ports';
export { openStores } from './open-stores';
export { StoreUnavailable, type OpenStoresOptions, type StoreConfig, type Stores } from './stores';
export { READ_STORE_CHECK_WAIT_MS } from '@app/stores/sqlite';
export { busyStoreIn, isStoreBusy, setLockWait } from '@app/sqlite';
