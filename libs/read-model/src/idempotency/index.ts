export * from './idempotency-store.port';
export * from './sqlite-idempotency-store';
