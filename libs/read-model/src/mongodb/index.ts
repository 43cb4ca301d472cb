/**
 * The MongoDB read store (`MONGODB_URL`), its idempotency store, school directory and webhook outbox: a separate
 * entry (`@app/read-model/mongodb`), loaded only when MongoDB is configured, so that the embedded
 * default does not load the driver at start (BENCHMARKS.md, "API start").
 */
export * from './mongo-read-model';
export * from '../idempotency/mongo-idempotency-store';
export * from '../schools/mongo-school-directory';
export * from '../webhooks/mongo-webhook-outbox';
