export { StoreUnavailable, openIdempotencyStore, openStores, openWebhookOutbox, readStoreConnection, type Stores } from './open-stores';
