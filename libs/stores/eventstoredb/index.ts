export { openEventStoreDb } from './open-eventstoredb';
