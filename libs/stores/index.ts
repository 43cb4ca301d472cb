export { StoreUnavailable, openStores, openWebhookOutbox, type Stores } from './open-stores';
