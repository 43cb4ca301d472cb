export { openDigestSchedule, SCHEDULED_DIGEST_SIGNER } from './scheduled-digests';
export {
  StoreUnavailable,
  openDigestTreeStore,
  openIdempotencyStore,
  openStores,
  openWebhookOutbox,
  readStoreConnection,
  type Stores,
} from './open-stores';
