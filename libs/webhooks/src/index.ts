/** Webhooks (docs/change-feed.md "Webhooks"): endpoint operations, the dispatcher, the signed sender and its address guard. */
export * from './webhook-operations';
export * from './webhook-dispatcher';
export * from './address-guard';
export * from './webhook-sender';
