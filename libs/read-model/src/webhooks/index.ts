export * from './webhook-outbox.port';
export * from './sqlite-webhook-outbox';
