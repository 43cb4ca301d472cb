export {
  StoreUnavailable,
  openDigestTreeStore,
  openIdempotencyStore,
  openStores,
  openWebhookOutbox,
  readStoreConnection,
  type Stores,
} from './open-stores';
