export { auditLogOf, historySourcesOf } from './audit-log';
export { erasurePortsOf } from './erasure-ports';
export { StoreUnavailable, openDigestTreeStore, openIdempotencyStore, openStores, openWebhookOutbox, type Stores } from './open-stores';
