export { auditLogOf, historySourcesOf } from './audit-log';
export { erasurePortsOf } from './erasure-ports';
export { setLockWait } from '@app/stores/sqlite';
export {
  StoreUnavailable,
  openDigestTreeStore,
  openIdempotencyStore,
  openStores,
  openUploadFiles,
  openWebhookOutbox,
  type Stores,
} from './open-stores';
