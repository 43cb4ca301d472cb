export { busyStoreIn, isStoreBusy } from './busy';
export { Database, sqliteVersion } from './database';
export { DEFAULT_LOCK_WAIT_MS, lockWait, setLockWait } from './lock-wait';
export { makePrivateDirectory, openPrivateDatabase, PRIVATE_FILE_MODE } from './private-files';
