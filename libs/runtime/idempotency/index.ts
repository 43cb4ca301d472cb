export {
  IDEMPOTENCY_CLAIM_LEASE_MS,
  IDEMPOTENCY_STORE,
  IDEMPOTENCY_TTL_MS,
  type IdempotencyClaim,
  type IdempotencyStore,
  type StoredAnswer,
} from './idempotency-store.port';
