export { StoreUnavailable, openStores, openWebhookOutbox, readStoreConnection, type Stores } from './open-stores';
